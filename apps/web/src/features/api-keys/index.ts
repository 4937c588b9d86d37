export { ApiKeysSettings } from './components/api-keys-settings';
