import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import 'react-toastify/dist/ReactToastify.css';
import './index.css';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { applyAppearance } from './lib/appearance';
import { connectExtensionBridge } from './lib/extension-bridge';
import { initI18n } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { clearSession, getToken } from './lib/session';

// Theme and font size before the first paint, so a dark-theme user never sees a white flash.
applyAppearance();
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
