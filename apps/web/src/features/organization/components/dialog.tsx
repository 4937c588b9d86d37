import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon, cn, focusRing } from '@parley/ui';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select, a[href]';

/**
 * A modal dialog with a form or a result inside (ConfirmDialog is for yes/no questions). Focus starts on the first
 * field (or the first control), Tab stays inside, Escape and the backdrop close it, and focus returns to the button
 * that opened it.
 */
export function Dialog({
  open,
  title,
  description,
  closeLabel,
  onClose,
  children,
  className,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const first =
      panel.current?.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled])') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      }
      if (event.key === 'Tab' && panel.current) {
        const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
        const head = focusable[0];
        const tail = focusable[focusable.length - 1];
        if (event.shiftKey && document.activeElement === head) {
          event.preventDefault();
          tail?.focus();
        } else if (!event.shiftKey && document.activeElement === tail) {
          event.preventDefault();
          head?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-[80] flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div className="absolute inset-0 bg-zinc-950/50" aria-hidden="true" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        className={cn(
          'relative max-h-[90dvh] w-full overflow-y-auto rounded-t-xl border border-zinc-200 bg-white p-5 shadow-xl sm:max-w-md sm:rounded-xl dark:border-zinc-800 dark:bg-zinc-900',
          className,
        )}
      >
        <div className="flex items-start justify-between gap-3">
          <h2 id={`${id}-title`} className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label={closeLabel}
            className={cn(
              '-m-1 rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
              focusRing,
            )}
          >
            <CloseIcon width="1.25em" height="1.25em" aria-hidden="true" />
          </button>
        </div>
        {description && (
          <p id={`${id}-description`} className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
            {description}
          </p>
        )}
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}
