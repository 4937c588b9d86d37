import { useTranslation } from 'react-i18next';
import { SkeletonBar, Spinner } from '@parley/ui';

/** Header while the user loads: two pulsing grey bars. */
export function HeaderPlaceholder() {
  return (
    <div className="flex w-full items-center justify-between" data-testid="header-placeholder">
      <SkeletonBar className="h-4 w-32" />
      <SkeletonBar className="h-4 w-48" />
    </div>
  );
}

export function SideMenuSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="space-y-3 p-4" data-testid="side-menu-skeleton">
      {Array.from({ length: rows }, (_, i) => (
        <SkeletonBar key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}

/** Page content loading: a grid of pulsing cards (Suspense fallback of lazy pages). */
export function PageSkeleton() {
  const { t } = useTranslation('shell');
  return (
    <div
      role="status"
      aria-label={t('loading')}
      data-testid="page-skeleton"
      className="grid gap-4 p-6 sm:grid-cols-2 xl:grid-cols-3"
    >
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="space-y-3 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
          <SkeletonBar className="h-4 w-1/3" />
          <SkeletonBar className="h-8 w-2/3" />
          <SkeletonBar className="h-3 w-full" />
        </div>
      ))}
    </div>
  );
}

/** Full-screen overlay while the user and plan data load. */
export function FullScreenLoading() {
  const { t } = useTranslation('shell');
  return (
    <div
      role="status"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-white/90 text-zinc-600 dark:bg-zinc-950/90 dark:text-zinc-300"
    >
      <Spinner className="h-8 w-8 text-blue-500" />
      <span className="text-sm">{t('loading')}</span>
    </div>
  );
}
