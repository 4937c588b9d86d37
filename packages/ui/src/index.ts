export { cn } from './cn.js';
export { Button, buttonClasses, focusRing, type ButtonProps, type ButtonVariant } from './button.js';
export { Spinner } from './spinner.js';
export { TextField, SelectField, type TextFieldProps, type SelectFieldProps } from './field.js';
export { Card, CardTitle, SkeletonBar } from './card.js';
export { Alert } from './alert.js';
export {
  MenuIcon,
  CloseIcon,
  HomeIcon,
  UserIcon,
  SettingsIcon,
  PaletteIcon,
  GlobeIcon,
  LogoutIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  ArrowLeftIcon,
  PuzzleIcon,
  LogoMark,
} from './icons.js';
