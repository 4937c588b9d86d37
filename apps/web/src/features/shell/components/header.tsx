import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Language } from '@parley/i18n';
import { CloseIcon, focusRing, LogoMark, LogoutIcon, MenuIcon, cn } from '@parley/ui';
import { LanguagePicker } from './language-picker';
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

/**
 * Sticky header. Left: on small screens the menu toggle and the brand (the side menu, which carries it on wide
 * screens, is hidden there); the page title from 640 px. Right: user, language, and sign out, labelled at every
 * width. The header is a size container: as the font size setting grows, the brand's name gives way first.
 */
export function Header({ loading, userName, menuOpen, onToggleMenu, language, onLanguageChange, title }: Props) {
  const { t } = useTranslation('shell');
  return (
    <header className="@container sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-zinc-200 bg-white/85 px-3 backdrop-blur sm:gap-3 sm:px-4 dark:border-zinc-800 dark:bg-zinc-950/85">
      <div className="flex min-w-0 flex-1 items-center gap-2 sm:gap-3">
        <button
          type="button"
          onClick={onToggleMenu}
          aria-label={t('toggleAsideMenu')}
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          className={cn(
            'shrink-0 rounded-md p-2 text-zinc-600 hover:bg-zinc-100 md:hidden dark:text-zinc-300 dark:hover:bg-zinc-800',
            focusRing,
          )}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
        <Link
          to="/home"
          className={cn('flex shrink-0 items-center gap-2 rounded-md md:hidden', focusRing)}
          data-testid="header-brand"
        >
          <LogoMark className="inline-flex h-7 w-7 items-center justify-center rounded-lg bg-blue-500 text-white" />
          <span className="sr-only text-base font-semibold tracking-tight text-zinc-900 @min-[24rem]:not-sr-only dark:text-zinc-50">
            Parley
          </span>
        </Link>
        {loading ? null : (
          <div className="hidden truncate text-sm font-medium text-zinc-900 sm:block dark:text-zinc-100">{title}</div>
        )}
      </div>
      {loading ? (
        <div className="flex-1">
          <HeaderPlaceholder />
        </div>
      ) : (
        <div className="flex shrink-0 items-center gap-2 sm:gap-3">
          {userName && (
            <span
              className="hidden max-w-40 truncate text-sm text-zinc-600 sm:inline dark:text-zinc-300"
              data-testid="header-user-name"
            >
              {userName}
            </span>
          )}
          <LanguagePicker id="header-language" value={language} onChange={onLanguageChange} compactWhenNarrow />
          <Link
            to="/signout"
            className={cn(
              'inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
              focusRing,
            )}
          >
            <LogoutIcon />
            <span>{t('signOut')}</span>
          </Link>
        </div>
      )}
    </header>
  );
}
