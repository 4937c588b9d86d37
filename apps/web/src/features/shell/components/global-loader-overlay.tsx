import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@parley/ui';
import { useGlobalLoader } from '../../../lib/global-loader';

/** Spec §9: a new message every 2 seconds. */
export const LOADER_ROTATION_MS = 2000;

export function GlobalLoaderOverlay() {
  const { active, type } = useGlobalLoader();
  const { t } = useTranslation('shell');
  const [index, setIndex] = useState(0);
  const messages = t(`loader.${type}`, { returnObjects: true }) as unknown;
  const list = Array.isArray(messages) ? (messages as string[]) : [String(messages)];

  useEffect(() => {
    if (!active) return;
    setIndex(0);
    const timer = setInterval(() => setIndex((i) => i + 1), LOADER_ROTATION_MS);
    return () => clearInterval(timer);
  }, [active, type]);

  if (!active) return null;
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center bg-zinc-950/40 backdrop-blur-[2px]">
      <div
        role="status"
        aria-live="polite"
        className="flex min-w-64 items-center gap-3 rounded-xl bg-white px-5 py-4 shadow-lg dark:bg-zinc-900"
      >
        <Spinner className="h-5 w-5 text-blue-500" />
        <span className="text-sm text-zinc-700 dark:text-zinc-200">{list[index % list.length]}</span>
      </div>
    </div>
  );
}
