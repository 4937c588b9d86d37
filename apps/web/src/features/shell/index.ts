export { Header } from './components/header';
export { SideMenu, SIDE_MENU_COLLAPSED_WIDTH, SIDE_MENU_OPEN_WIDTH, type SideMenuItem } from './components/side-menu';
export { useSideMenu, MEDIUM_BREAKPOINT } from './components/use-side-menu';
export { HeaderPlaceholder, SideMenuSkeleton, PageSkeleton, FullScreenLoading } from './components/skeletons';
export { GlobalLoaderOverlay } from './components/global-loader-overlay';
export { LanguagePicker } from './components/language-picker';
