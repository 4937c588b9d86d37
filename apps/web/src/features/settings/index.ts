export { AppearanceSettings } from './components/appearance-settings';
export { GeneralSettings } from './components/general-settings';
