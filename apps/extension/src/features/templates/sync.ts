import type { Shortcut, Signature, Template } from '@parley/contract';
import type { TemplatesData } from '../../platform/messaging/protocol';
import {
  FRESH_FOR_MS,
  type ShortcutList,
  type TemplateLibrary,
  type TemplatesStore,
} from '../../platform/storage/templates-store';

export type TemplatesApi = {
  templates(): Promise<{ templates: Template[] }>;
  signatures(): Promise<{ signatures: Signature[] }>;
  shortcuts(): Promise<{ shortcuts: Shortcut[] }>;
};

type Who = { signedIn: boolean; userId: string | null };

const NONE: TemplatesData = { templates: [], signatures: [] };

/**
 * Spec §4, "in extension mode the template list is fetched once logged in": the background fetches the person's
 * templates, signatures and shortcuts on sign-in and keeps them in storage.local (templates-store.ts); a content script
 * asking for them (GET_TEMPLATES, REFRESH_TEMPLATES) gets what is stored at once and starts a new fetch when the last
 * one is older than FRESH_FOR_MS. When the person changes them in the web app, its bridge says so (TEMPLATES_CHANGED)
 * and they are fetched at once; the five minutes remain for changes made elsewhere (another browser, the API).
 * Sign-out clears them. A fetch that ends after the session changed is dropped, so one person's templates never land
 * in another's storage.
 */
export function createTemplatesSync(deps: {
  store: TemplatesStore;
  api: TemplatesApi;
  /** The session now (the background's session service). */
  who: () => Promise<Who>;
  now?: () => number;
  freshForMs?: number;
}) {
  const { store, api, who } = deps;
  const now = deps.now ?? Date.now;
  const freshFor = deps.freshForMs ?? FRESH_FOR_MS;
  let inFlight: Promise<void> | null = null;

  async function fetchAll(): Promise<void> {
    const { signedIn, userId } = await who();
    if (!signedIn) return;
    const [templates, signatures, shortcuts] = await Promise.allSettled([
      api.templates(),
      api.signatures(),
      api.shortcuts(),
    ]);
    const after = await who();
    if (!after.signedIn || after.userId !== userId) return;
    // What failed keeps what was stored for this person (nothing for someone else's); the time of this attempt is kept
    // either way, so an API that is down is asked again only when it is stale again.
    const [oldLibrary, oldShortcuts] = await Promise.all([store.getLibrary(), store.getShortcuts()]);
    const keep = <T>(list: T[] | undefined, owner: string | null | undefined) => (owner === userId ? (list ?? []) : []);
    const fetchedAt = now();
    const library: TemplateLibrary = {
      userId,
      fetchedAt,
      templates:
        templates.status === 'fulfilled'
          ? templates.value.templates.map(({ id, kind, title, body, language }) => ({
              id,
              kind,
              title,
              body,
              language,
            }))
          : keep(oldLibrary?.templates, oldLibrary?.userId),
      signatures:
        signatures.status === 'fulfilled'
          ? signatures.value.signatures.map(({ id, name, html, defaultFor }) => ({ id, name, html, defaultFor }))
          : keep(oldLibrary?.signatures, oldLibrary?.userId),
    };
    const list: ShortcutList = {
      userId,
      fetchedAt,
      items:
        shortcuts.status === 'fulfilled'
          ? shortcuts.value.shortcuts.map(({ key, text }) => ({ key, text }))
          : keep(oldShortcuts?.items, oldShortcuts?.userId),
    };
    await store.set(library, list);
  }

  /** Fetches now (one fetch at a time: a second ask joins the running one). */
  function refresh(): Promise<void> {
    inFlight ??= fetchAll()
      .catch(() => undefined)
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  let again: Promise<void> | null = null;
  /**
   * The web app says something changed (TEMPLATES_CHANGED): fetch now, or, when a fetch is under way (it may have read
   * the lists before the change), once more right after it; changes arriving meanwhile share that one fetch. Answers
   * whether a fetch was started or planned (not when signed out).
   */
  async function changed(): Promise<boolean> {
    if (!(await who()).signedIn) return false;
    if (inFlight) {
      again ??= inFlight.then(() => {
        again = null;
        return refresh();
      });
    } else void refresh();
    return true;
  }

  /** What is stored for the person signed in now; fetched first when there is nothing for them, else when stale. */
  async function get(): Promise<TemplatesData> {
    const current = await who();
    if (!current.signedIn) return NONE;
    let library = await store.getLibrary();
    if (!library || library.userId !== current.userId) {
      await refresh();
      library = await store.getLibrary();
      if (!library || library.userId !== current.userId) return NONE;
    } else if (now() - library.fetchedAt > freshFor) {
      void refresh();
    }
    return { templates: library.templates, signatures: library.signatures };
  }

  /** Refetches when what is stored is stale (or someone else's); answers whether a fetch started. */
  async function refreshIfStale(): Promise<boolean> {
    const current = await who();
    if (!current.signedIn) return false;
    const library = await store.getLibrary();
    if (library && library.userId === current.userId && now() - library.fetchedAt <= freshFor) return false;
    void refresh();
    return true;
  }

  return { refresh, changed, get, refreshIfStale, clear: () => store.clear() };
}

export type TemplatesSync = ReturnType<typeof createTemplatesSync>;
