import { browser } from 'wxt/browser';
import { loggedOutReason } from '@parley/api-client';
import { WEB_ORIGIN } from '../config';
import { createSessionService } from '../features/auth/session-service';
import { createImageCapture } from '../features/capture/background';
import { createChatPortHandler, createTranscribeHandler } from '../features/chat/background';
import { createEditMenu, createImageEditorEntry } from '../features/image-editor/background';
import { createLinkedinEngage } from '../features/linkedin-engage/background';
import { createSettingsSync } from '../features/settings/sync';
import { createBrowserTemplatePicker } from '../features/templates/picker';
import { createTemplatesSync } from '../features/templates/sync';
import { createApiCallHandler, createBackgroundApiClient } from '../platform/api/background-api';
import { onMessages } from '../platform/messaging/messaging';
import { MessageError } from '../platform/messaging/router';
import { browserSessionStorage, watchSession } from '../platform/storage/session-store';
import { browserSettingsStore } from '../platform/storage/settings-store';
import { browserTemplatesStore } from '../platform/storage/templates-store';
import { createPanelControl } from '../platform/tabs/panel-control';

/**
 * The background worker, composed: the session, the one API client, settings sync, the chat port, captures and the side
 * panel meet here (entrypoints/background.ts only starts it).
 */
export function startBackground(): void {
  let language = 'en';
  // Declared before the client: the client's callbacks use it.
  const session = createSessionService({
    storage: browserSessionStorage,
    // The token being accepted is already the current one when this runs.
    fetchProfile: () => client.call('profile'),
    serverLogout: async () => {
      await client.call('logout');
    },
    onSignedIn: async () => {
      await Promise.all([settings.pull(), templates.refresh()]);
    },
  });
  const client = createBackgroundApiClient({
    session,
    language: () => language,
    onLoggedOut: (error) => void session.end('forced', loggedOutReason(error)),
    onUnauthorized: () => void session.end('invalid'),
  });
  const settings = createSettingsSync({
    store: browserSettingsStore,
    api: { fetch: () => client.call('settings'), update: (body) => client.call('updateSettings', { body }) },
    isSignedIn: async () => {
      await session.ready;
      return session.token() !== null;
    },
  });
  const templates = createTemplatesSync({
    store: browserTemplatesStore,
    api: {
      templates: () => client.call('templates'),
      signatures: () => client.call('signatures'),
      shortcuts: () => client.call('shortcutTemplates'),
    },
    who: async () => {
      await session.ready;
      const { signedIn, userId } = await session.info();
      return { signedIn: signedIn && session.token() !== null, userId };
    },
  });
  const linkedinEngage = createLinkedinEngage({
    client,
    ready: session.ready,
    who: async () => {
      const { signedIn, userId } = await session.info();
      return signedIn && session.token() !== null ? (userId ?? 'signed-in') : null;
    },
    store: {
      get: async (key) => (await browser.storage.local.get(key))[key],
      set: (key, value) => browser.storage.local.set({ [key]: value }),
    },
    badge: {
      set: async (tabId, text, title) => {
        await browser.action.setBadgeBackgroundColor({ tabId, color: '#3b5bdb' });
        await browser.action.setBadgeText({ tabId, text });
        await browser.action.setTitle({ tabId, title });
      },
    },
  });
  // Signed out, or someone else signing in: one person's templates and shortcuts never stay for the next.
  watchSession((next, previous) => {
    if (!next.signedIn || (previous.userId !== null && next.userId !== previous.userId)) {
      void templates.clear();
      linkedinEngage.forget();
    }
  });
  const picker = createBrowserTemplatePicker(import.meta.env.PARLEY_WEB_URL);
  // Registered at the top, so closing a picker window (or the tab that opened one) wakes the worker to forget it.
  browser.windows.onRemoved.addListener((windowId) => void picker.forget({ windowId }));
  browser.tabs.onRemoved.addListener((tabId) => void picker.forget({ tabId }));
  const panel = createPanelControl();
  const imageCapture = createImageCapture({ open: panel.open });
  const imageEditor = createImageEditorEntry({
    client,
    ready: session.ready,
    hasToken: () => session.token() !== null,
    webOrigin: WEB_ORIGIN,
    openTab: (url, from) =>
      browser.tabs.create({
        url,
        ...(from?.id !== undefined ? { openerTabId: from.id, index: from.index + 1, windowId: from.windowId } : {}),
      }),
  });
  const editMenu = createEditMenu(browser.contextMenus);

  void browserSessionStorage.getState().then((state) => {
    language = state.profile?.language ?? 'en';
    imageCapture.setLanguage(language);
    void editMenu(language);
  });
  browser.storage.onChanged.addListener((changes, area) => {
    const profile = (changes.session?.newValue as { profile?: { language?: string } } | undefined)?.profile;
    if (area === 'local' && profile?.language) {
      language = profile.language;
      imageCapture.setLanguage(language);
      void editMenu(language);
    }
  });

  onMessages({
    GET_COOKIE: () => session.info(),
    SET_COOKIE: (data) => {
      if (!data || (data.token !== null && typeof data.token !== 'string')) {
        throw new MessageError('BAD_REQUEST', 'token must be a string or null');
      }
      return session.accept(data.token);
    },
    LOGOUT: () => session.logout(),
    OPEN_CLOSE_POPUP: panel.handler,
    API_CALL: createApiCallHandler({
      client,
      ready: session.ready,
      hasToken: () => session.token() !== null,
      onProfile: (profile) => session.setProfile(profile),
    }),
    GET_SETTINGS: () => settings.get(),
    SET_SETTINGS: async (update) => {
      try {
        return await settings.change(update);
      } catch (error) {
        if ((error as { name?: string })?.name === 'ZodError') {
          throw new MessageError('VALIDATION_FAILED', 'Invalid settings', 400);
        }
        throw error;
      }
    },
    SYNC_SETTINGS: () => settings.pull(),
    GET_TEMPLATES: () => templates.get(),
    REFRESH_TEMPLATES: async () => ({ started: await templates.refreshIfStale() }),
    TEMPLATES_CHANGED: async () => ({ started: await templates.changed() }),
    OPEN_TEMPLATE_PICKER: (data, { sender }) => picker.open(data, sender),
    TEMPLATE_CHOSEN: (data, { sender }) => picker.choose(data, sender),
    TRANSCRIBE: createTranscribeHandler({ ready: session.ready, hasToken: () => session.token() !== null, client }),
    ...imageCapture.handlers,
    ...imageEditor.handlers,
    ...linkedinEngage.handlers,
  });
  browser.contextMenus.onClicked.addListener(imageCapture.onMenuClick);
  browser.contextMenus.onClicked.addListener(imageEditor.onMenuClick);

  browser.runtime.onConnect.addListener(
    createChatPortHandler({ ready: session.ready, hasToken: () => session.token() !== null, client }),
  );

  // The toolbar button opens the side panel from action.onClicked (a user gesture) rather than through
  // openPanelOnActionClick: Chromium grants activeTab only when the click reaches the extension, and activeTab is what
  // lets the panel capture that tab (screenshot, region, PDF, video).
  void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: false }).catch(() => undefined);
  browser.action.onClicked.addListener((tab) => void panel.open({ tabId: tab.id, windowId: tab.windowId }));
  // Defaults in storage from the first start, and the server's settings when the browser starts (not on every wake
  // of the worker); sign-in and the settings screens pull too.
  browser.runtime.onInstalled.addListener(() => void settings.pull());
  browser.runtime.onStartup.addListener(() => void settings.pull());
  browser.runtime.onStartup.addListener(() => void templates.refreshIfStale());
}
