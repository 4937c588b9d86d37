import type { ReactNode } from 'react';

/** What a list says when it has nothing to show. */
export function EmptyState({
  icon,
  title,
  body,
  children,
}: {
  icon: ReactNode;
  title: string;
  body?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
      <span className="text-zinc-400 [&>svg]:h-8 [&>svg]:w-8" aria-hidden="true">
        {icon}
      </span>
      <p className="font-medium text-zinc-900 dark:text-zinc-50">{title}</p>
      {body && <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{body}</p>}
      {children}
    </div>
  );
}
