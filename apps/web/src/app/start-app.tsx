import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { connectExtensionBridge } from '../lib/extension-bridge';
import { initI18n } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { clearSession, getToken } from '../lib/session';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

/** The whole app: every page, behind the router (main.tsx starts it unless the stand-alone login page will do). */
export function startApp(root: HTMLElement) {
  const i18n = initI18n();
  const router = createAppRouter();
  // The browser extension signs in and out with the web app (spec §4, UPDATE_TOKEN).
  connectExtensionBridge({
    getToken,
    onExtensionLogout: () => {
      clearSession();
      queryClient.clear();
    },
  });

  createRoot(root).render(
    <StrictMode>
      <AppProviders i18n={i18n}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
