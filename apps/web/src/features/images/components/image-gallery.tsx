import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { Image } from '@parley/contract';
import { Alert, Button, SkeletonBar } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useDeleteImage, useImageHistory } from '../api/images-api';
import { ImageCard } from './image-card';
import { ImageSparkIcon } from './icons';

// Each card as tall as its own picture and text (`items-start`): a landscape card beside a portrait one is not
// stretched into an empty box.
export const gridClasses = 'grid grid-cols-2 items-start gap-3 sm:grid-cols-3 lg:grid-cols-4';

/** Deleting an image, after a confirmation (used by the results and the history). */
export function useDeleteWithConfirmation(onDeleted?: (image: Image) => void) {
  const { t } = useTranslation('images');
  const remove = useDeleteImage();
  const [deleting, setDeleting] = useState<Image | null>(null);
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={t('delete.title')}
      description={t('delete.body', { name: deleting?.prompt ?? deleting?.name ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('common:actions.cancel')}
      busy={remove.isPending}
      onCancel={() => setDeleting(null)}
      onConfirm={() => {
        if (!deleting) return;
        const image = deleting;
        remove.mutate(image.id, {
          onSuccess: (answer) => {
            toast.success(answer.message || t('delete.done'));
            onDeleted?.(image);
            setDeleting(null);
          },
          onError: (error) => {
            toast.error(errorMessage(error));
            setDeleting(null);
          },
        });
      }}
    />
  );
  return { ask: setDeleting, dialog };
}

/**
 * The person's images, newest first, a page at a time. `hide`: images already shown above (just made), not shown twice.
 */
export function ImageHistory({ hide }: { hide?: ReadonlySet<string> }) {
  const { t } = useTranslation('images');
  const history = useImageHistory();
  const { ask, dialog } = useDeleteWithConfirmation();
  const all = history.data?.pages.flatMap((page) => page.images) ?? [];
  const images = hide ? all.filter((image) => !hide.has(image.id)) : all;
  // Everything there is was just made and is shown above.
  if (history.isSuccess && all.length > 0 && images.length === 0 && !history.hasNextPage) return dialog;

  return (
    <section aria-labelledby="images-history" className="space-y-3">
      <h2 id="images-history" className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
        {t('history.title')}
      </h2>
      {history.isPending ? (
        <ul className={gridClasses} aria-busy="true" aria-label={t('history.loading')}>
          {[0, 1, 2, 3].map((i) => (
            <li key={i}>
              <SkeletonBar className="aspect-square w-full rounded-xl" />
            </li>
          ))}
        </ul>
      ) : history.isError ? (
        <Alert tone="error">{errorMessage(history.error)}</Alert>
      ) : all.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-zinc-300 px-4 py-10 text-center dark:border-zinc-700">
          <ImageSparkIcon className="h-8 w-8 text-zinc-400" />
          <p className="font-medium text-zinc-900 dark:text-zinc-50">{t('history.empty')}</p>
          <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{t('history.emptyBody')}</p>
        </div>
      ) : (
        <>
          {images.length > 0 && (
            <ul className={gridClasses} aria-label={t('history.title')}>
              {images.map((image) => (
                <ImageCard key={image.id} image={image} onDelete={ask} />
              ))}
            </ul>
          )}
          {history.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="secondary"
                loading={history.isFetchingNextPage}
                onClick={() => void history.fetchNextPage()}
              >
                {t('history.more')}
              </Button>
            </div>
          )}
        </>
      )}
      {dialog}
    </section>
  );
}
