export { TemplateIcon } from './components/icons';
export { NewTemplate } from './components/new-template';
export { TemplateList } from './components/template-list';
export { TemplateEditor, type EditorDraft } from './components/template-editor';
export { SignatureList } from './components/signature-list';
export { SignatureEditor } from './components/signature-editor';
export { Shortcuts } from './components/shortcuts';
export { TemplatePicker } from './components/template-picker';
export { templateKeys } from './api/templates-api';
