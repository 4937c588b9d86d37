import type { ReactNode } from 'react';

/** A list of label → value pairs: stacked on a phone, side by side from `sm` up. */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="divide-y divide-zinc-100 dark:divide-zinc-800">{children}</dl>;
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-words text-sm font-medium text-zinc-900 sm:text-right dark:text-zinc-50">
        {children}
      </dd>
    </div>
  );
}
