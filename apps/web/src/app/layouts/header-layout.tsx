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
// The icon alone: through the feature's index the whole portal would load with every page.
import { ShieldIcon } from '../../features/admin/components/icons';
import { CardIcon, PlansIcon } from '../../features/plans/components/icons';
import { TeamIcon } from '../../features/organization/components/icons';
import { TemplateIcon } from '../../features/templates/components/icons';
import { ImageEditIcon, ImageSparkIcon } from '../../features/images/components/icons';
import { LinkedinIcon } from '../../features/linkedin/components/icons';
import { ExternalIcon, HelpIcon, ReplyIcon, SlidersIcon } from '@parley/ui/settings';
import { useCurrentUser } from '../../lib/current-user';
import { useHelpUrl } from '../../lib/settings';
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
  const helpUrl = useHelpUrl();
  const isSiteAdmin = user.data?.role === 'admin';

  useEffect(() => closeOverlay(), [location.pathname, closeOverlay]);

  const items = useMemo<{ items: SideMenuItem[]; back?: SideMenuItem; heading?: string }>(() => {
    if (menu === 'settings') {
      return {
        back: { to: '/home', label: t('menu.backToApp'), icon: <ArrowLeftIcon /> },
        heading: t('menu.settings'),
        items: [
          { to: '/setting', label: t('settings:menu.appearance'), icon: <PaletteIcon />, end: true },
          { to: '/setting/general', label: t('settings:menu.general'), icon: <GlobeIcon /> },
          { to: '/setting/instant-reply', label: t('settings:menu.instantReply'), icon: <ReplyIcon /> },
          { to: '/setting/other', label: t('settings:menu.other'), icon: <SlidersIcon /> },
          { to: '/setting/api-keys', label: t('settings:menu.apiKeys'), icon: <KeyIcon /> },
          { to: '/setting/plan', label: t('settings:menu.plan'), icon: <CardIcon /> },
          { to: '/profile', label: t('menu.profile'), icon: <UserIcon /> },
          ...(helpUrl
            ? [
                {
                  to: helpUrl,
                  label: t('settings:menu.help'),
                  icon: <HelpIcon />,
                  external: { note: t('settings:menu.newTab'), icon: <ExternalIcon width="1em" height="1em" /> },
                },
              ]
            : []),
        ],
      };
    }
    return {
      items: [
        { to: '/home', label: t('menu.home'), icon: <HomeIcon /> },
        { to: '/chat', label: t('menu.chat'), icon: <ChatIcon /> },
        { to: '/template', label: t('menu.templates'), icon: <TemplateIcon /> },
        { to: '/image-generation', label: t('menu.imageGeneration'), icon: <ImageSparkIcon /> },
        { to: '/image-editor', label: t('menu.imageEditor'), icon: <ImageEditIcon /> },
        {
          to: '/automation',
          label: t('menu.linkedin'),
          icon: <LinkedinIcon />,
          // LinkedIn sends the browser back to /linkedin-auth-redirect (spec §2), a page of the assistant too.
          also: ['/linkedin-auth-redirect'],
        },
        { to: '/subscription', label: t('menu.subscription'), icon: <PlansIcon /> },
        { to: '/organization', label: t('menu.organization'), icon: <TeamIcon /> },
        { to: '/profile', label: t('menu.profile'), icon: <UserIcon /> },
        { to: '/setting', label: t('menu.settings'), icon: <SettingsIcon /> },
        // Site admins only (the page and every admin call check the role too).
        ...(isSiteAdmin ? [{ to: '/admin-portal', label: t('menu.admin'), icon: <ShieldIcon /> }] : []),
      ],
    };
  }, [menu, t, helpUrl, isSiteAdmin]);

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
