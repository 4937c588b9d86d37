import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import { Bounce, ToastContainer } from 'react-toastify';
import { GlobalLoaderOverlay } from '../features/shell';
import { applyAppearance } from '../lib/appearance';
import { usePageTitle } from '../lib/page-title';
import { BootSpinner } from './boot-spinner';

export type RouteHandle = { title?: string };

/** Title of the deepest route that names one (`handle: { title: 'ns:key' }`), as 'title | Parley'. */
function RouteTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const key = [...matches]
    .reverse()
    .map((m) => (m.handle as RouteHandle | undefined)?.title)
    .find(Boolean);
  usePageTitle(key ? t(key) : '');
  return null;
}

/** Spec §9 toast settings: top-right, 5 s, pause on hover, drag 80 %, light theme, no progress bar. */
function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      pauseOnHover
      draggable
      draggablePercent={80}
      theme="light"
      hideProgressBar
      newestOnTop
      closeOnClick={false}
      transition={Bounce}
      // Below the header (3.5rem), so a toast never hides the language picker or Sign out.
      style={{ top: 'calc(3.5rem + 0.5rem)' }}
    />
  );
}

export function RootShell() {
  useEffect(() => applyAppearance(), []);
  return (
    <Suspense fallback={<BootSpinner />}>
      <RouteTitle />
      <Outlet />
      <GlobalLoaderOverlay />
      <Toasts />
      <ScrollRestoration />
    </Suspense>
  );
}
