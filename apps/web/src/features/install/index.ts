export { InstallGuide } from './components/install-guide';
