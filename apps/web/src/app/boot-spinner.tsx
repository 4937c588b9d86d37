import { Spinner } from '@parley/ui';

/** Shown before translations are available, so it has no words. */
export function BootSpinner() {
  return (
    <div className="fixed inset-0 flex items-center justify-center bg-white dark:bg-zinc-950" aria-busy="true">
      <Spinner className="h-8 w-8 text-blue-500" />
    </div>
  );
}
