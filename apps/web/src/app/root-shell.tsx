import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';
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

// The toast container and its library load beside the first page, not before it: no page needs them to show itself.
// Toasts asked for before it is mounted wait in the library's queue (lib/toast.ts).
const Toasts = lazy(() => import('./toasts').then((m) => ({ default: m.Toasts })));

export function RootShell() {
  useEffect(() => applyAppearance(), []);
  return (
    <Suspense fallback={<BootSpinner />}>
      <RouteTitle />
      <Outlet />
      <GlobalLoaderOverlay />
      {/* Its own boundary: while the container loads, the page stays (no boot spinner over it). */}
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <ScrollRestoration />
    </Suspense>
  );
}
