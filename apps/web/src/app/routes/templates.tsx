import { useLocation, useParams, useSearchParams } from 'react-router';
import {
  NewTemplate,
  Shortcuts,
  SignatureEditor,
  SignatureList,
  TemplateEditor,
  TemplateList,
  TemplatePicker,
  type EditorDraft,
} from '../../features/templates';

/** Where the templates pages send a person refused an AI draft for credits or the day's uses. */
const PLANS_PATH = '/subscription';

/** /new-template: choose what to make, write it with the AI, or start from an example. */
export function NewTemplatePage() {
  return <NewTemplate plansPath={PLANS_PATH} />;
}

/** /template: the templates, their order, export and import. */
export function TemplateListPage() {
  return <TemplateList />;
}

/** /template/new (an AI draft or an example arrives in the navigation's state) and /template/{id}. */
export function TemplateEditorPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const draft = (location.state as EditorDraft | null) ?? null;
  return <TemplateEditor key={id ?? `new-${location.key}`} id={id} draft={draft} kind={params.get('kind')} />;
}

/** /template/signature */
export function SignatureListPage() {
  return <SignatureList />;
}

/** /template/signature/new and /template/signature/{id} */
export function SignatureEditorPage() {
  const { id } = useParams();
  return <SignatureEditor id={id} />;
}

/** /template/shortcuts */
export function ShortcutsPage() {
  return <Shortcuts plansPath={PLANS_PATH} />;
}

/** /template-app/*: the picker the extension opens. */
export function TemplatePickerPage() {
  return <TemplatePicker />;
}
