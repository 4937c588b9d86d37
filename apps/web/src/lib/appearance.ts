import { useSyncExternalStore } from 'react';
import { APP_DEFAULTS, FONT_SIZES, type THEMES } from '@parley/contract/values';

export type Theme = (typeof THEMES)[number];
export type Appearance = { theme: Theme; fontSize: number };

const KEYS = { theme: 'theme', fontSize: 'fontSize' } as const;
const listeners = new Set<() => void>();
let cached: Appearance | null = null;

function read(): Appearance {
  const theme = localStorage.getItem(KEYS.theme);
  const size = Number(localStorage.getItem(KEYS.fontSize));
  return {
    theme: theme === 'dark' ? 'dark' : 'light',
    fontSize: (FONT_SIZES as readonly number[]).includes(size) ? size : APP_DEFAULTS.fontSize,
  };
}

export function getAppearance(): Appearance {
  cached ??= read();
  return cached;
}

/** Applies theme (a class on <html>) and font size (the root font size) to the document. */
export function applyAppearance(appearance: Appearance = getAppearance()): void {
  const root = document.documentElement;
  root.classList.toggle('dark', appearance.theme === 'dark');
  root.style.colorScheme = appearance.theme;
  root.style.fontSize = `${appearance.fontSize}px`;
}

/** Stored locally (spec §3): the appearance belongs to this browser. */
export function setAppearance(patch: Partial<Appearance>): void {
  const next = { ...getAppearance(), ...patch };
  localStorage.setItem(KEYS.theme, next.theme);
  localStorage.setItem(KEYS.fontSize, String(next.fontSize));
  cached = next;
  applyAppearance(next);
  listeners.forEach((l) => l());
}

export function useAppearance(): Appearance {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getAppearance,
    getAppearance,
  );
}
