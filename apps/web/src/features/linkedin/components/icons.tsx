import { Icon, type IconProps } from '@parley/ui/icons';

/** A rounded square with "in": the LinkedIn assistant (the main menu's entry). */
export const LinkedinIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="3" width="18" height="18" rx="3" />
    <path d="M8 10v7M8 7v.01M12 17v-7M12 13c0-2 1.2-3 2.5-3S17 11 17 13v4" />
  </Icon>
);

/** Four-point star: written by AI. */
export const SparkIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8z" />
  </Icon>
);
