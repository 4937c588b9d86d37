export { InstallGuide } from './components/install-guide';
export { ExtensionPageNotice } from './components/extension-page-notice';
