export { cn } from './cn.js';
export { Button, buttonClasses, focusRing, type ButtonProps, type ButtonVariant } from './button.js';
export { Spinner } from './spinner.js';
export { Field, TextField, SelectField, type FieldProps, type TextFieldProps, type SelectFieldProps } from './field.js';
export { Card, CardTitle, SkeletonBar } from './card.js';
export { PageSection } from './page-section.js';
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
  ChatIcon,
  KeyIcon,
  LogoMark,
} from './icons.js';
// Page-specific pieces have their own entry points (package.json `exports`): `@parley/ui/markdown`,
// `@parley/ui/confirm-dialog`, `@parley/ui/action-icons`. Through this barrel every page would carry them.
