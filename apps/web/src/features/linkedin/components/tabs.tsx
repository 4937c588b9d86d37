import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn, focusRing } from '@parley/ui';

export type Tab = { id: string; label: string; content: ReactNode };

/**
 * Tabs as screen readers expect them: arrows, Home and End move between tabs; only the chosen one is in the Tab order.
 * On a narrow screen the tabs wrap onto more lines (a label between its words), never cut.
 */
export function Tabs({
  label,
  tabs,
  value,
  onChange,
}: {
  label: string;
  tabs: Tab[];
  value: string;
  onChange: (id: string) => void;
}) {
  const base = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const index = Math.max(
    0,
    tabs.findIndex((tab) => tab.id === value),
  );
  const current = tabs[index]!;

  const onKeyDown = (e: KeyboardEvent) => {
    const last = tabs.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next]!;
    onChange(tab.id);
    refs.current[tab.id]?.focus();
  };

  return (
    <div className="space-y-4">
      <div role="tablist" aria-label={label} className="flex flex-wrap border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((tab) => {
          const selected = tab.id === current.id;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                refs.current[tab.id] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.id}`}
              aria-selected={selected}
              aria-controls={`${base}-panel-${tab.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.id)}
              onKeyDown={onKeyDown}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-left text-sm font-medium',
                focusRing,
                selected
                  ? 'border-blue-500 text-blue-700 dark:text-blue-300'
                  : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel-${current.id}`}
        aria-labelledby={`${base}-tab-${current.id}`}
        tabIndex={0}
        className={cn('rounded-md', focusRing)}
      >
        {current.content}
      </div>
    </div>
  );
}
