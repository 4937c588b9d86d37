import type { PickedTemplate } from '../../platform/messaging/protocol';
import {
  TEMPLATE_CHOSEN_MESSAGE,
  TEMPLATE_RECEIVED_MESSAGE,
  templateChosenIn,
} from '../../platform/messaging/template-choice';
import type { SessionState } from '../../platform/storage/session-store';

/**
 * Page messages between the web app and the extension's bridge content script (window.postMessage on the web app's
 * own window). The web app's side is apps/web/src/lib/extension-bridge.ts.
 */
export const PAGE_MESSAGES = {
  /** Web app → extension (spec §4): { type, token: string | null }; null means the web app logged out. */
  updateToken: 'UPDATE_TOKEN',
  /** Extension → web app: the extension's session ended (logout in the extension, 409, refused token). */
  loggedOut: 'PARLEY_EXTENSION_LOGGED_OUT',
  /** Web app → extension: is the extension installed in this browser? (/install and onboarding ask.) */
  ping: 'PARLEY_EXTENSION_PING',
  /** Extension → web app, in answer to a ping: { type, version }. Only the configured web app's origin hears it. */
  present: 'PARLEY_EXTENSION_PRESENT',
  /** Web app → extension: templates, signatures or shortcuts were just changed; the extension fetches them again. */
  templatesChanged: 'PARLEY_TEMPLATES_CHANGED',
  /** Web app (the picker in a window the extension opened) → extension: `{ type, template }` (template-choice.ts). */
  templateChosen: TEMPLATE_CHOSEN_MESSAGE,
  /** Extension → the picker: `{ type, delivered }`, whether the template reached the box it was chosen for. */
  templateReceived: TEMPLATE_RECEIVED_MESSAGE,
} as const;

type PageMessageEvent = { source: unknown; origin: string; data: unknown };

/**
 * A valid UPDATE_TOKEN, or null. It must come from this very window (not a frame or an opener), from the page's own
 * origin, and the page must be the configured web app origin exactly.
 */
export function readUpdateToken(
  event: PageMessageEvent,
  win: { location: { origin: string } },
  webOrigin: string,
): { token: string | null } | null {
  if (event.source !== win) return null;
  if (win.location.origin !== webOrigin || event.origin !== webOrigin) return null;
  const data = event.data as { type?: unknown; token?: unknown } | null;
  if (!data || typeof data !== 'object' || data.type !== PAGE_MESSAGES.updateToken) return null;
  if (data.token === null) return { token: null };
  if (typeof data.token === 'string' && data.token.length > 0 && data.token.length <= 1024)
    return { token: data.token };
  return null;
}

/** Whether a page message is the web app asking whether the extension is installed (same checks as above). */
export function isPresencePing(
  event: PageMessageEvent,
  win: { location: { origin: string } },
  webOrigin: string,
): boolean {
  if (event.source !== win) return false;
  if (win.location.origin !== webOrigin || event.origin !== webOrigin) return false;
  const data = event.data as { type?: unknown } | null;
  return !!data && typeof data === 'object' && data.type === PAGE_MESSAGES.ping;
}

/** Whether a page message comes from this very window, on the configured web app origin exactly. */
const fromWebApp = (event: PageMessageEvent, win: { location: { origin: string } }, webOrigin: string) =>
  event.source === win && win.location.origin === webOrigin && event.origin === webOrigin;

/** Whether a page message is the web app saying templates, signatures or shortcuts changed (same checks as above). */
export function isTemplatesChanged(
  event: PageMessageEvent,
  win: { location: { origin: string } },
  webOrigin: string,
): boolean {
  if (!fromWebApp(event, win, webOrigin)) return false;
  const data = event.data as { type?: unknown } | null;
  return !!data && typeof data === 'object' && data.type === PAGE_MESSAGES.templatesChanged;
}

/**
 * The template a picker posted, or null: same window and origin checks as above, and exactly the shape of
 * template-choice.ts. Whether a picker is waiting for it is the background's to decide.
 */
export function readTemplateChosen(
  event: PageMessageEvent,
  win: { location: { origin: string } },
  webOrigin: string,
): PickedTemplate | null {
  return fromWebApp(event, win, webOrigin) ? templateChosenIn(event.data) : null;
}

/** Whether the web app should hear that the extension signed out (not when the web app itself said so). */
export function shouldTellWebApp(next: SessionState, previous: SessionState): boolean {
  return previous.signedIn && !next.signedIn && next.endReason !== 'web-logout';
}
