import { cn, focusRing } from '@parley/ui';

/** Class names shared by our pages, matching the web app's controls (packages/ui). */

/** A small secondary button: icon + label, as in the panel's action row. */
export const toolButton = cn(
  'inline-flex h-8 shrink-0 items-center gap-1.5 rounded-lg border border-zinc-200 bg-white px-2.5 text-sm font-medium text-zinc-700 shadow-xs transition-colors hover:border-zinc-300 hover:bg-zinc-50 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800',
  focusRing,
);

/** A square icon-only button (the label is its aria-label). */
export const iconButton = cn(
  'inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-lg text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  focusRing,
);

/** The × of a chip or a list row. */
export const removeButton = cn(
  'inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-md text-zinc-400 hover:bg-zinc-200 hover:text-zinc-800 dark:hover:bg-zinc-700 dark:hover:text-zinc-100',
  focusRing,
);

/** Inputs and selects, as the web app's fields. */
export const control =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/** An on/off checkbox drawn as a switch (it stays a checkbox: name, checked state and label are unchanged). */
export const switchInput = cn(
  "relative inline-block h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-zinc-300 transition-colors before:absolute before:left-0.5 before:top-0.5 before:h-4 before:w-4 before:rounded-full before:bg-white before:shadow-sm before:transition-transform before:content-[''] checked:bg-blue-500 checked:before:translate-x-4 dark:bg-zinc-700 dark:checked:bg-blue-500",
  focusRing,
);

/** Muted secondary text. */
export const muted = 'text-zinc-500 dark:text-zinc-400';

/** A chip of the composer (page, image, PDF). */
export const chip =
  'flex max-w-full items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 py-1 pl-1 pr-1 text-xs dark:border-zinc-700 dark:bg-zinc-800';

/** A warning (truncated text, signed out). */
export const notice =
  'rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-200';

/** An error line. */
export const errorText = 'text-sm text-red-600 dark:text-red-400';
