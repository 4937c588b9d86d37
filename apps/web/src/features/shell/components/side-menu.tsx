import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { ChevronLeftIcon, ChevronRightIcon, CloseIcon, LogoMark, cn, focusRing } from '@parley/ui';
import { SideMenuSkeleton } from './skeletons';

export type SideMenuItem = {
  to: string;
  label: string;
  icon: ReactNode;
  end?: boolean;
  /** Other paths (and the paths under them) where this entry is the current one too. */
  also?: string[];
  /** An address outside the app, opened in a new tab; `note` says so to screen readers ("opens in a new tab"). */
  external?: { note: string; icon: ReactNode };
};

type Props = {
  items: SideMenuItem[];
  open: boolean;
  wide: boolean;
  loading?: boolean;
  /** A heading above the items (e.g. "Settings"). */
  heading?: string;
  /** A link above the items (e.g. back to the app from the settings). */
  back?: SideMenuItem;
  onToggle: () => void;
  onNavigate: () => void;
};

/** Width of the menu: 20rem open; about 6.2em collapsed (wide screens only). */
export const SIDE_MENU_OPEN_WIDTH = '20rem';
export const SIDE_MENU_COLLAPSED_WIDTH = '6.2em';

/**
 * Fixed side menu. Wide screens: open (20rem) or collapsed to icons (6.2em). Small screens: off-screen until
 * opened, then over the page with a backdrop.
 */
export function SideMenu({ items, open, wide, loading = false, heading, back, onToggle, onNavigate }: Props) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const under = (paths: string[] | undefined) =>
    !!paths?.some((path) => pathname === path || pathname.startsWith(`${path}/`));
  const collapsed = wide && !open;
  const hiddenOffscreen = !wide && !open;

  const itemClass = (active: boolean) =>
    cn(
      'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
      focusRing,
      collapsed && 'justify-center px-0',
      active
        ? 'bg-blue-50 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300'
        : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
    );

  const link = (item: SideMenuItem, key?: string) =>
    item.external ? (
      <a
        key={key ?? item.to}
        href={item.to}
        target="_blank"
        rel="noopener noreferrer"
        onClick={onNavigate}
        title={collapsed ? item.label : undefined}
        className={itemClass(false)}
      >
        <span className="shrink-0 text-[1.1em]">{item.icon}</span>
        <span className={collapsed ? 'sr-only' : 'truncate'}>{item.label}</span>
        <span className="sr-only"> ({item.external.note})</span>
        {!collapsed && <span className="ml-auto shrink-0 text-zinc-400">{item.external.icon}</span>}
      </a>
    ) : (
      <NavLink
        key={key ?? item.to}
        to={item.to}
        end={item.end}
        onClick={onNavigate}
        title={collapsed ? item.label : undefined}
        className={({ isActive }) => itemClass(isActive || under(item.also))}
      >
        <span className="shrink-0 text-[1.1em]">{item.icon}</span>
        <span className={collapsed ? 'sr-only' : 'truncate'}>{item.label}</span>
      </NavLink>
    );

  // Escape closes the overlay on small screens.
  useEffect(() => {
    if (wide || !open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onToggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [wide, open, onToggle]);

  return (
    <>
      {!wide && open && <div className="fixed inset-0 z-40 bg-zinc-950/40" aria-hidden="true" onClick={onToggle} />}
      <aside
        id="side-menu"
        aria-label={t('sideMenu')}
        // Off-screen menus must not be reachable by keyboard.
        inert={hiddenOffscreen || undefined}
        style={{ width: collapsed ? SIDE_MENU_COLLAPSED_WIDTH : SIDE_MENU_OPEN_WIDTH }}
        className={cn(
          'fixed inset-y-0 left-0 z-50 flex flex-col border-r border-zinc-200 bg-white transition-[transform,width] duration-200 dark:border-zinc-800 dark:bg-zinc-950',
          hiddenOffscreen ? '-translate-x-full' : 'translate-x-0',
        )}
      >
        <div
          className={cn(
            'flex h-14 items-center gap-2 border-b border-zinc-200 px-4 dark:border-zinc-800',
            collapsed && 'justify-center px-0',
          )}
        >
          <Link to="/home" onClick={onNavigate} className={cn('flex items-center gap-2 rounded-md', focusRing)}>
            <LogoMark />
            <span
              className={
                collapsed ? 'sr-only' : 'text-base font-semibold tracking-tight text-zinc-900 dark:text-zinc-50'
              }
            >
              Parley
            </span>
          </Link>
          {!wide && (
            <button
              type="button"
              onClick={onToggle}
              aria-label={t('closeMenu')}
              className={cn('ml-auto rounded-md p-2 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800', focusRing)}
            >
              <CloseIcon />
            </button>
          )}
        </div>
        {loading ? (
          <SideMenuSkeleton />
        ) : (
          <nav className="flex-1 space-y-1 overflow-y-auto p-3">
            {back && link(back, 'back')}
            {heading && !collapsed && (
              <p className="px-3 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-zinc-400">{heading}</p>
            )}
            {items.map((item) => link(item))}
          </nav>
        )}
        {wide && (
          <div className="border-t border-zinc-200 p-3 dark:border-zinc-800">
            <button
              type="button"
              onClick={onToggle}
              aria-expanded={open}
              aria-controls="side-menu"
              className={cn(
                'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800',
                focusRing,
                collapsed && 'justify-center px-0',
              )}
            >
              {open ? <ChevronLeftIcon /> : <ChevronRightIcon />}
              <span className={collapsed ? 'sr-only' : ''}>{open ? t('collapseMenu') : t('expandMenu')}</span>
            </button>
          </div>
        )}
      </aside>
    </>
  );
}
