import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.js';

/** A bordered panel. `flush` leaves the padding to the caller (class names are joined, not merged). */
export function Card({ className, flush = false, ...rest }: HTMLAttributes<HTMLDivElement> & { flush?: boolean }) {
  return (
    <div
      className={cn(
        'rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900',
        !flush && 'p-5',
        className,
      )}
      {...rest}
    />
  );
}

export function CardTitle({ children, as: Tag = 'h2' }: { children: ReactNode; as?: 'h2' | 'h3' }) {
  return <Tag className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{children}</Tag>;
}

/** A pulsing grey block used by loading skeletons. */
export function SkeletonBar({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-zinc-200 dark:bg-zinc-800', className)} />;
}
