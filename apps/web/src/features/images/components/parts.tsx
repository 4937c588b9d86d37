import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ImageModel } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { cn, focusRing, SkeletonBar } from '@parley/ui';
import { ApiError } from '../../../lib/api';
import { useVersionUrl } from '../api/images-api';

/** Transparent pixels show as the usual grey-and-white squares. */
export const checkerboard: CSSProperties = {
  backgroundColor: '#ffffff',
  backgroundImage: 'conic-gradient(#e4e4e7 25%, transparent 0 50%, #e4e4e7 0 75%, transparent 0)',
  backgroundSize: '16px 16px',
};

/** A version's picture (fetched with the token, shown from an object URL), on a checkerboard. */
export function VersionImage({
  versionId,
  size = 'full',
  alt,
  className,
  fit = 'contain',
  style,
  fill = false,
}: {
  versionId: string;
  size?: 'full' | 'thumb';
  alt: string;
  className?: string;
  /** How the picture fills its box: whole (letterboxed on the checkerboard) or cropped to fill it (thumbnails). */
  fit?: 'contain' | 'cover';
  style?: CSSProperties;
  /** Fills its positioned parent (the editor's stage) instead of taking its own place. */
  fill?: boolean;
}) {
  const { t } = useTranslation('images');
  const { url, failed } = useVersionUrl(versionId, size);
  return (
    <div
      className={cn(fill ? 'absolute inset-0' : 'relative', 'overflow-hidden', className)}
      style={{ ...checkerboard, ...style }}
    >
      {url ? (
        <img
          src={url}
          alt={alt}
          className={cn('block h-full w-full', fit === 'cover' ? 'object-cover' : 'object-contain')}
          draggable={false}
        />
      ) : failed ? (
        <p className="flex h-full min-h-16 items-center justify-center p-2 text-center text-xs text-zinc-500">
          {t('common.notLoaded')}
        </p>
      ) : (
        <SkeletonBar className="absolute inset-0 rounded-none" />
      )}
    </div>
  );
}

/** Seconds since `running` became true (0 while it is false). */
export function useElapsed(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    setSeconds(0);
    if (!running) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return seconds;
}

/** "12 s" in the reader's language. */
export function useFormatSeconds() {
  const { i18n } = useTranslation();
  return (seconds: number) =>
    formatNumber(seconds, i18n.language, { style: 'unit', unit: 'second', unitDisplay: 'short' });
}

/** A refused or failed call: the server's words (already in the person's language), and the plans for credits. */
export function ErrorNotice({ error, plansPath }: { error: unknown; plansPath: string }) {
  const { t, i18n } = useTranslation('images');
  const message =
    error instanceof ApiError && error.status === 0
      ? t('common:errors.network')
      : error instanceof ApiError && error.message
        ? error.message
        : t('common:errors.generic');
  return (
    <div
      role="alert"
      className="space-y-1 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200"
    >
      <p>{message}</p>
      {error instanceof ApiError && error.credits && (
        <p>
          {t('common.creditsShort', {
            needed: formatNumber(error.credits.needed, i18n.language),
            available: formatNumber(error.credits.available, i18n.language),
            tier: t(`models.tiers.${error.credits.tier}`, { defaultValue: error.credits.tier }),
          })}
        </p>
      )}
      {error instanceof ApiError && error.status === 402 && (
        <Link to={plansPath} className={cn('inline-block font-medium underline', focusRing)}>
          {t('common.seePlans')}
        </Link>
      )}
    </div>
  );
}

/**
 * What a model costs the person: credits from their plan (per image, or for `images` of them), or nothing with their
 * own key.
 */
export function usePrice() {
  const { t, i18n } = useTranslation('images');
  const n = (value: number) => formatNumber(value, i18n.language);
  return {
    perImage: (model: Pick<ImageModel, 'creditsPerImage' | 'keySource'>) =>
      model.keySource === 'own' ? t('models.ownKey') : t('models.perImage', { credits: n(model.creditsPerImage) }),
    total: (model: Pick<ImageModel, 'creditsPerImage' | 'keySource'>, images = 1) =>
      model.keySource === 'own'
        ? t('models.ownKey')
        : t('generate.cost', { credits: n(model.creditsPerImage * images) }),
  };
}

/** Why a model cannot be chosen, and where to fix it. */
export function UnavailableHint({ apiKeysPath, children }: { apiKeysPath: string; children?: ReactNode }) {
  const { t } = useTranslation('images');
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400">
      {children ?? t('models.unavailableWhy')}{' '}
      <Link to={apiKeysPath} className={cn('font-medium text-blue-700 underline dark:text-blue-300', focusRing)}>
        {t('models.addKey')}
      </Link>
    </p>
  );
}

export const TIER_TONES = {
  basic: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  advance: 'bg-blue-50 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300',
  extraAdvance: 'bg-violet-50 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300',
} as const;

export function TierBadge({ tier }: { tier: ImageModel['tier'] }) {
  const { t } = useTranslation('images');
  return (
    <span
      className={cn('inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium', TIER_TONES[tier])}
    >
      {t(`models.tiers.${tier}`)}
    </span>
  );
}

/** Classes of a plain multi-line field, like the shared TextField's input. */
export const textareaClasses =
  'block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

export const iconButton = cn(
  'inline-flex h-9 w-9 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  focusRing,
);

/** A page of the feature: its heading and what follows. */
export function ImagesPage({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl space-y-5 p-4 sm:p-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{title}</h1>
        {intro && <p className="text-sm text-zinc-600 dark:text-zinc-400">{intro}</p>}
      </div>
      {children}
    </div>
  );
}
