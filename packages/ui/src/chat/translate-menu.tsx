import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { WRITING_LANGUAGE_TAGS, WRITING_LANGUAGES } from '@parley/contract/values';
import { writingLanguageName } from '@parley/i18n';
import { focusRing } from '../button.js';
import { cn } from '../cn.js';

/** The name of a language in another language ('de' in French → 'allemand'). */
export function languageName(code: string, inLanguage: string): string {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const MENU_WIDTH = 192;
const MENU_MAX_HEIGHT = 256;
const GAP = 4;

/**
 * Where the menu goes: fixed to the window, so the scrolling conversation around the button cannot clip it;
 * above the button when there is room (or more room than below), else below it.
 */
function placeMenu(button: DOMRect): CSSProperties {
  const above = button.top - GAP * 2;
  const below = window.innerHeight - button.bottom - GAP * 2;
  const left = Math.max(GAP, Math.min(button.left, window.innerWidth - MENU_WIDTH - GAP));
  return above >= MENU_MAX_HEIGHT || above > below
    ? { left, bottom: window.innerHeight - button.top + GAP, maxHeight: Math.min(MENU_MAX_HEIGHT, above) }
    : { left, top: button.bottom + GAP, maxHeight: Math.min(MENU_MAX_HEIGHT, below) };
}

type Props = {
  label: string;
  icon: ReactNode;
  buttonClass: string;
  /** Called with the language code picked. */
  onPick: (code: string) => void;
};

/** A button that opens a menu of languages (arrow keys move, Enter picks, Escape closes). */
export function TranslateMenu({ label, icon, buttonClass, onPick }: Props) {
  const { t, i18n } = useTranslation('chat');
  const [place, setPlace] = useState<CSSProperties | null>(null);
  const open = place !== null;
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const setOpen = (value: boolean) =>
    setPlace(value && trigger.current ? placeMenu(trigger.current.getBoundingClientRect()) : null);
  const names = useMemo(
    () =>
      // The writing languages the settings, templates and replies offer (any language works on the server), named
      // as the settings name them.
      WRITING_LANGUAGES.map((id) => ({
        code: WRITING_LANGUAGE_TAGS[id],
        name: writingLanguageName(id, i18n.language),
      })).sort((a, b) => a.name.localeCompare(b.name, i18n.language)),
    [i18n.language],
  );

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setPlace(null);
    };
    // The menu stays where it was opened: scrolling the page or resizing the window closes it.
    const onMove = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setPlace(null);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('scroll', onMove, true);
    window.addEventListener('resize', onMove);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('scroll', onMove, true);
      window.removeEventListener('resize', onMove);
    };
  }, [open]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (index + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items[next]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      items[event.key === 'Home' ? 0 : items.length - 1]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    }
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={label}
        title={label}
        onClick={() => setOpen(!open)}
        className={buttonClass}
      >
        {icon}
      </button>
      {open && (
        <div
          id={`${id}-menu`}
          role="menu"
          aria-label={t('message.translateTo')}
          onKeyDown={onMenuKey}
          style={{ ...place, width: MENU_WIDTH }}
          className="fixed z-30 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          <p className="px-2 py-1 text-xs font-semibold text-zinc-400">{t('message.translateTo')}</p>
          {names.map(({ code, name }) => (
            <button
              key={code}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                trigger.current?.focus();
                onPick(code);
              }}
              className={cn(
                'block w-full rounded-md px-2 py-1.5 text-left text-sm text-zinc-700 hover:bg-zinc-100 focus:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800 dark:focus:bg-zinc-800',
                focusRing,
              )}
            >
              {name}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
