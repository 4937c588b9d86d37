import { useCallback, useEffect, useState } from 'react';

/** Spec §9: the medium breakpoint. */
export const MEDIUM_BREAKPOINT = 768;
export const SIDE_MENU_STORAGE_KEY = 'sideMenuOpen';
const query = `(min-width: ${MEDIUM_BREAKPOINT}px)`;

const isWide = () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
const stored = () => localStorage.getItem(SIDE_MENU_STORAGE_KEY) !== 'false';

/**
 * Open or collapsed. At 768px and wider the choice is remembered; below it the menu is forced closed (off-screen)
 * and only opens as an overlay until the next navigation or resize.
 */
export function useSideMenu() {
  const [wide, setWide] = useState(isWide);
  const [open, setOpen] = useState(() => (isWide() ? stored() : false));

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(query);
    const onChange = () => {
      setWide(mql.matches);
      setOpen(mql.matches ? stored() : false);
    };
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);

  const setAndRemember = useCallback(
    (next: boolean) => {
      setOpen(next);
      if (wide) localStorage.setItem(SIDE_MENU_STORAGE_KEY, String(next));
    },
    [wide],
  );
  const toggle = useCallback(() => setAndRemember(!open), [open, setAndRemember]);
  /** Closes the overlay on small screens (after a navigation); leaves the wide layout alone. */
  const closeOverlay = useCallback(() => {
    if (!wide) setOpen(false);
  }, [wide]);

  return { open, wide, toggle, setOpen: setAndRemember, closeOverlay };
}
