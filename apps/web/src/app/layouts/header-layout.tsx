import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import { isLanguage, type Language } from '@parley/i18n';
import { ArrowLeftIcon, ChatIcon, GlobeIcon, HomeIcon, KeyIcon, PaletteIcon, SettingsIcon, UserIcon } from '@parley/ui';
import {
  Header,
  PageSkeleton,
  SideMenu,
  SIDE_MENU_COLLAPSED_WIDTH,
  SIDE_MENU_OPEN_WIDTH,
  useSideMenu,
  type SideMenuItem,
} from '../../features/shell';
import { useCurrentUser } from '../../lib/current-user';
import { useChangeLanguage } from '../../lib/use-change-language';
import type { RouteHandle } from '../root-shell';

/** Header layout with the default side menu ('main') or the settings side menu ('settings'). */
export function HeaderLayout({ menu }: { menu: 'main' | 'settings' }) {
  const { t, i18n } = useTranslation('shell');
  const user = useCurrentUser();
  const side = useSideMenu();
  const changeLanguage = useChangeLanguage();
  const location = useLocation();
  const matches = useMatches();
  const titleKey = [...matches]
    .reverse()
    .map((m) => (m.handle as RouteHandle | undefined)?.title)
    .find(Boolean);
  const { closeOverlay } = side;

  useEffect(() => closeOverlay(), [location.pathname, closeOverlay]);

  const items = useMemo<{ items: SideMenuItem[]; back?: SideMenuItem; heading?: string }>(() => {
    if (menu === 'settings') {
      return {
        back: { to: '/home', label: t('menu.backToApp'), icon: <ArrowLeftIcon /> },
        heading: t('menu.settings'),
        items: [
          { to: '/setting', label: t('menu.appearance'), icon: <PaletteIcon />, end: true },
          { to: '/setting/general', label: t('menu.interfaceLanguage'), icon: <GlobeIcon /> },
          { to: '/setting/other', label: t('menu.apiKeys'), icon: <KeyIcon /> },
          { to: '/profile', label: t('menu.profile'), icon: <UserIcon /> },
        ],
      };
    }
    return {
      items: [
        { to: '/home', label: t('menu.home'), icon: <HomeIcon /> },
        { to: '/chat', label: t('menu.chat'), icon: <ChatIcon /> },
        { to: '/profile', label: t('menu.profile'), icon: <UserIcon /> },
        { to: '/setting', label: t('menu.settings'), icon: <SettingsIcon /> },
      ],
    };
  }, [menu, t]);

  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const offset = side.wide ? (side.open ? SIDE_MENU_OPEN_WIDTH : SIDE_MENU_COLLAPSED_WIDTH) : '0px';

  return (
    <div className="min-h-dvh bg-zinc-50 dark:bg-zinc-950">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[70] focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        {t('skipToContent')}
      </a>
      <SideMenu
        {...items}
        open={side.open}
        wide={side.wide}
        loading={user.isPending}
        onToggle={side.toggle}
        onNavigate={closeOverlay}
      />
      <div className="transition-[padding] duration-200" style={{ paddingLeft: offset }}>
        <Header
          loading={user.isPending}
          userName={user.data?.name}
          menuOpen={side.open}
          onToggleMenu={side.toggle}
          language={language}
          onLanguageChange={(lng) => changeLanguage.mutate(lng)}
          title={titleKey ? t(titleKey) : undefined}
        />
        <main id="main" tabIndex={-1} className="focus:outline-none">
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
