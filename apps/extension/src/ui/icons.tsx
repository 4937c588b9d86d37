import { Icon as BaseIcon, CloseIcon as BaseCloseIcon, type IconProps } from '@parley/ui/icons';

/** The shared line icon, a little smaller in the extension's compact pages. */
const Icon = (p: IconProps) => <BaseIcon width="1.15em" height="1.15em" {...p} />;

export const PageIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14 3H7a2 2 0 00-2 2v14a2 2 0 002 2h10a2 2 0 002-2V8z" />
    <path d="M14 3v5h5M9 13h6M9 17h4" />
  </Icon>
);
export const CameraIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 8a2 2 0 012-2h1.5l1.5-2h6l1.5 2H18a2 2 0 012 2v9a2 2 0 01-2 2H6a2 2 0 01-2-2z" />
    <circle cx="12" cy="12.5" r="3.5" />
  </Icon>
);
export const RegionIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 8V5a1 1 0 011-1h3M16 4h3a1 1 0 011 1v3M20 16v3a1 1 0 01-1 1h-3M8 20H5a1 1 0 01-1-1v-3" />
    <rect x="8.5" y="8.5" width="7" height="7" rx="1" />
  </Icon>
);
export const PdfIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14 3H7a2 2 0 00-2 2v14a2 2 0 002 2h10a2 2 0 002-2V8z" />
    <path d="M14 3v5h5" />
    <path d="M8.5 16.5v-4h1.2a1.2 1.2 0 010 2.4H8.5M13 12.5v4h.8a1.6 1.6 0 001.6-1.6v-.8a1.6 1.6 0 00-1.6-1.6z" />
  </Icon>
);
export const VideoIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="5" width="18" height="14" rx="3" />
    <path d="M10.5 9.5v5l4-2.5z" />
  </Icon>
);
export const ExternalIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14 4h6v6M20 4l-9 9" />
    <path d="M18 14v4a2 2 0 01-2 2H6a2 2 0 01-2-2V8a2 2 0 012-2h4" />
  </Icon>
);
export const CloseIcon = (p: IconProps) => <BaseCloseIcon width="1.15em" height="1.15em" {...p} />;
