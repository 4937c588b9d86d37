import { useTranslation } from 'react-i18next';
import type { ImageVersion } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { cn, focusRing } from '@parley/ui';
import { VersionImage } from './parts';

/** The words for how a version was made ("Background removed"). */
export const operationKey = (operation: ImageVersion['operation']) => `versions.made.${operation}` as const;

/**
 * Every version of the image, oldest first, each a thumbnail; choosing one shows it, and the next edit is made from it
 * (a new version whose parent it is).
 */
export function VersionList({
  versions,
  currentId,
  onSelect,
  disabled,
}: {
  versions: readonly ImageVersion[];
  currentId: string | undefined;
  onSelect: (id: string) => void;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation('images');
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section aria-labelledby="image-versions" className="space-y-2">
      <h2 id="image-versions" className="text-sm font-semibold text-zinc-900 dark:text-zinc-50">
        {t('versions.title', { total: n(versions.length) })}
      </h2>
      <ol className="flex gap-2 overflow-x-auto pb-2">
        {versions.map((version, index) => {
          const current = version.id === currentId;
          const parentNumber = version.parentId ? versions.findIndex((v) => v.id === version.parentId) + 1 : 0;
          const label = t('versions.label', { number: n(index + 1), made: t(operationKey(version.operation)) });
          return (
            <li key={version.id} className="shrink-0">
              <button
                type="button"
                onClick={() => onSelect(version.id)}
                disabled={disabled}
                aria-current={current ? 'true' : undefined}
                aria-label={label}
                title={parentNumber > 0 ? `${label} · ${t('versions.from', { number: n(parentNumber) })}` : label}
                className={cn(
                  'block w-24 rounded-lg border-2 p-0.5 text-left disabled:cursor-not-allowed',
                  focusRing,
                  current ? 'border-blue-500' : 'border-transparent hover:border-zinc-300 dark:hover:border-zinc-700',
                )}
              >
                <VersionImage
                  versionId={version.id}
                  size="thumb"
                  alt=""
                  className="h-16 w-full rounded-md"
                  fit="cover"
                />
                {/* The number, then how it was made on up to two lines: versions stay apart at a glance. */}
                <span className="mt-1 block px-0.5 text-xs text-zinc-700 dark:text-zinc-300" aria-hidden="true">
                  <span className="block font-semibold tabular-nums">{n(index + 1)}</span>
                  <span className="line-clamp-2 block min-h-[2lh] hyphens-auto break-words">
                    {t(operationKey(version.operation))}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
