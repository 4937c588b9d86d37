import { cn } from '@parley/ui';

/** A small label beside a name: a role, Owner, You, Expired. */
export function Badge({ children, tone = 'zinc' }: { children: string; tone?: 'zinc' | 'blue' | 'amber' | 'red' }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        tone === 'zinc' && 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
        tone === 'blue' && 'bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
        tone === 'amber' && 'bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
        tone === 'red' && 'bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
      )}
    >
      {children}
    </span>
  );
}
