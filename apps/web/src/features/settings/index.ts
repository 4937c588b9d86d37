export { AppearanceSettings } from './components/appearance-settings';
export { InterfaceLanguageSettings } from './components/general-settings';
export { InstantReplySettings } from './components/instant-reply-settings';
export { ModelSettings } from './components/model-settings';
export { OtherSettings } from './components/other-settings';
export { SettingsPage } from './components/settings-page';
