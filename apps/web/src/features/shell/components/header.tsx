import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LANGUAGES, type Language } from '@parley/i18n';
import { CloseIcon, focusRing, LogoutIcon, MenuIcon, cn } from '@parley/ui';
import { HeaderPlaceholder } from './skeletons';

type Props = {
  loading: boolean;
  userName?: string | undefined;
  menuOpen: boolean;
  onToggleMenu: () => void;
  language: Language;
  onLanguageChange: (language: Language) => void;
  /** Page heading shown on the left on wide screens. */
  title?: ReactNode;
};

/** Sticky header: menu toggle (small screens only) on the left; user, language and sign out on the right. */
export function Header({ loading, userName, menuOpen, onToggleMenu, language, onLanguageChange, title }: Props) {
  const { t } = useTranslation('shell');
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-zinc-200 bg-white/85 px-4 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/85">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <button
          type="button"
          onClick={onToggleMenu}
          aria-label={t('toggleAsideMenu')}
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          className={cn(
            'rounded-md p-2 text-zinc-600 hover:bg-zinc-100 md:hidden dark:text-zinc-300 dark:hover:bg-zinc-800',
            focusRing,
          )}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
        {loading ? null : <div className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">{title}</div>}
      </div>
      {loading ? (
        <div className="flex-1">
          <HeaderPlaceholder />
        </div>
      ) : (
        <div className="flex items-center gap-2 sm:gap-3">
          {userName && (
            <span
              className="hidden max-w-40 truncate text-sm text-zinc-600 sm:inline dark:text-zinc-300"
              data-testid="header-user-name"
            >
              {userName}
            </span>
          )}
          <label className="sr-only" htmlFor="header-language">
            {t('language')}
          </label>
          <select
            id="header-language"
            value={language}
            onChange={(e) => onLanguageChange(e.target.value as Language)}
            className={cn(
              'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
              focusRing,
            )}
          >
            {LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {t(`languages.${lng}`)}
              </option>
            ))}
          </select>
          <Link
            to="/signout"
            className={cn(
              'inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
              focusRing,
            )}
          >
            <LogoutIcon />
            <span className="hidden sm:inline">{t('signOut')}</span>
            <span className="sr-only sm:hidden">{t('signOut')}</span>
          </Link>
        </div>
      )}
    </header>
  );
}
