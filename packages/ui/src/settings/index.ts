// The settings pieces shared by the web app's settings pages and the extension's options page.
export {
  DisabledSitesField,
  InstantReplySites,
  PageTools,
  QuickAccessFields,
  SettingSelect,
  SettingSwitch,
  SettingsSection,
  SummarizeSites,
  WritingFields,
  switchClasses,
  type SettingsFieldProps,
} from './settings-fields.js';
export { ExternalIcon, HelpIcon, ReplyIcon, SlidersIcon } from './settings-icons.js';
