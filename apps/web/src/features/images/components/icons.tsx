import { Icon, type IconProps } from '@parley/ui/icons';

/** A picture with a spark: image generation (the main menu's entry). */
export const ImageSparkIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M13 4H5a2 2 0 00-2 2v12a2 2 0 002 2h14a2 2 0 002-2v-7" />
    <path d="M3 17l5-5 4 4 2-2 7 6" />
    <path d="M18 2l.9 2.1L21 5l-2.1.9L18 8l-.9-2.1L15 5l2.1-.9z" />
  </Icon>
);

/** A picture with a pen: the image editor (the main menu's entry). */
export const ImageEditIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M11 4H5a2 2 0 00-2 2v12a2 2 0 002 2h12a2 2 0 002-2v-5" />
    <path d="M3 17l5-5 4 4" />
    <path d="M18.5 2.5l3 3L14 13h-3v-3z" />
  </Icon>
);

export const UndoIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 14L4 9l5-5" />
    <path d="M4 9h10.5a5.5 5.5 0 010 11H11" />
  </Icon>
);

export const RedoIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M15 14l5-5-5-5" />
    <path d="M20 9H9.5a5.5 5.5 0 000 11H13" />
  </Icon>
);

export const DownloadIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 4v11M7 10l5 5 5-5M4 19h16" />
  </Icon>
);

export const UploadIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 15V4M7 9l5-5 5 5M4 19h16" />
  </Icon>
);

/** A round brush tip: painting the mask. */
export const BrushIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M20 4L10 14" />
    <path d="M9.5 14.5a3 3 0 00-4.2 0C4 15.8 5 18 3 20c3 .5 5.7 0 7-1.3a3 3 0 00-.5-4.2z" />
  </Icon>
);

/** Two halves: the before/after comparison. */
export const CompareIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M12 2v20" />
  </Icon>
);
