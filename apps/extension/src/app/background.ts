import { browser } from 'wxt/browser';
import { createSessionService } from '../features/auth/session-service';
import { createImageCapture } from '../features/capture/background';
import { createChatPortHandler, createTranscribeHandler } from '../features/chat/background';
import { createSettingsSync } from '../features/settings/sync';
import { createApiCallHandler, createBackgroundApiClient } from '../platform/api/background-api';
import { onMessages } from '../platform/messaging/messaging';
import { MessageError } from '../platform/messaging/router';
import { browserSessionStorage } from '../platform/storage/session-store';
import { browserSettingsStore } from '../platform/storage/settings-store';
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
      await settings.pull();
    },
  });
  const client = createBackgroundApiClient({
    session,
    language: () => language,
    onLoggedOut: () => void session.end('forced'),
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
  const panel = createPanelControl();
  const imageCapture = createImageCapture({ open: panel.open });

  void browserSessionStorage.getState().then((state) => {
    language = state.profile?.language ?? 'en';
    imageCapture.setLanguage(language);
  });
  browser.storage.onChanged.addListener((changes, area) => {
    const profile = (changes.session?.newValue as { profile?: { language?: string } } | undefined)?.profile;
    if (area === 'local' && profile?.language) {
      language = profile.language;
      imageCapture.setLanguage(language);
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
    TRANSCRIBE: createTranscribeHandler({ ready: session.ready, hasToken: () => session.token() !== null, client }),
    ...imageCapture.handlers,
  });
  browser.contextMenus.onClicked.addListener(imageCapture.onMenuClick);

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
}
