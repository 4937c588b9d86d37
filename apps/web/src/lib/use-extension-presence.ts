import { useSyncExternalStore } from 'react';
import { getExtensionPresence, subscribeExtensionPresence, type ExtensionPresence } from './extension-bridge';

/** Whether the Parley extension is installed in this browser: 'checking' for a moment, then 'installed' or 'absent'. */
export function useExtensionPresence(): ExtensionPresence {
  return useSyncExternalStore(subscribeExtensionPresence, getExtensionPresence, getExtensionPresence);
}
