/**
 * The web app's half of the sign-in hand-off with the Parley browser extension (spec §4: "a page message of type
 * UPDATE_TOKEN updates the token"). The extension's bridge content script runs only on this app's exact origin and
 * listens on this window; nothing here reaches the extension when it is not installed.
 *
 * Page messages stay on this window (targetOrigin is our own origin), so no other site or frame sees the token.
 */

/** Web app → extension: the current token, or null after a logout. */
export const UPDATE_TOKEN = 'UPDATE_TOKEN';
/** Extension → web app: the extension logged out (its logout button, a 409, a refused token). */
export const EXTENSION_LOGGED_OUT = 'PARLEY_EXTENSION_LOGGED_OUT';

/** Tells the extension about a new token (after any sign-in) or about a logout (null). */
export function postTokenToExtension(token: string | null): void {
  if (typeof window === 'undefined') return;
  window.postMessage({ type: UPDATE_TOKEN, token }, window.location.origin);
}

/**
 * Call once at start-up. Hands the current token to the extension (it may have been installed or reloaded since the
 * sign-in), and ends the web session when the extension says it logged out. Returns a function that stops listening.
 */
export function connectExtensionBridge(options: {
  getToken: () => string | null;
  onExtensionLogout: () => void;
}): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window || event.origin !== window.location.origin) return;
    const data = event.data as { type?: unknown } | null;
    if (data && typeof data === 'object' && data.type === EXTENSION_LOGGED_OUT && options.getToken()) {
      options.onExtensionLogout();
    }
  };
  window.addEventListener('message', onMessage);
  const token = options.getToken();
  if (token) postTokenToExtension(token);
  return () => window.removeEventListener('message', onMessage);
}

/** Web app → extension: the person changed templates, signatures or shortcuts here; the extension fetches them again. */
export const TEMPLATES_CHANGED = 'PARLEY_TEMPLATES_CHANGED';

/**
 * Tells the extension (when installed) that templates, signatures or shortcuts changed, after the server accepted the
 * change; it refetches them at once instead of within its five minutes. Nothing but the fact is posted.
 */
export function postTemplatesChanged(): void {
  if (typeof window === 'undefined') return;
  window.postMessage({ type: TEMPLATES_CHANGED }, window.location.origin);
}

/** Web app → extension: is the extension installed in this browser? */
export const EXTENSION_PING = 'PARLEY_EXTENSION_PING';
/** Extension → web app, answering a ping: { type, version }. */
export const EXTENSION_PRESENT = 'PARLEY_EXTENSION_PRESENT';

export type ExtensionPresence =
  { status: 'checking' } | { status: 'absent' } | { status: 'installed'; version: string | null };

/** How long the extension has to answer before the page says it is not installed (it answers within milliseconds). */
export const PRESENCE_TIMEOUT_MS = 1500;

let presence: ExtensionPresence = { status: 'checking' };
let asked = false;
const presenceListeners = new Set<() => void>();

function setPresence(next: ExtensionPresence) {
  presence = next;
  presenceListeners.forEach((listener) => listener());
}

/**
 * Asks the extension, once per page load, whether it is installed. Its bridge content script answers only on this
 * app's exact origin; a late answer still turns "absent" into "installed". Browsers add an extension's content
 * scripts to pages opened after it was installed, so a page that was already open learns of it on reload.
 */
function askExtension() {
  if (asked || typeof window === 'undefined') return;
  asked = true;
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window || event.origin !== window.location.origin) return;
    const data = event.data as { type?: unknown; version?: unknown } | null;
    if (data && typeof data === 'object' && data.type === EXTENSION_PRESENT) {
      setPresence({ status: 'installed', version: typeof data.version === 'string' ? data.version : null });
    }
  });
  window.postMessage({ type: EXTENSION_PING }, window.location.origin);
  window.setTimeout(() => {
    if (presence.status === 'checking') setPresence({ status: 'absent' });
  }, PRESENCE_TIMEOUT_MS);
}

/** For useSyncExternalStore: subscribing starts the check. */
export function subscribeExtensionPresence(listener: () => void): () => void {
  presenceListeners.add(listener);
  askExtension();
  return () => presenceListeners.delete(listener);
}

export const getExtensionPresence = (): ExtensionPresence => presence;
