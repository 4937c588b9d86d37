import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { Image } from '@parley/contract';
import { imageModelInfo } from '@parley/contract/values';
import { formatDate } from '@parley/i18n';
import { Spinner } from '@parley/ui';
import { CopyIcon, PencilIcon, TrashIcon } from '@parley/ui/action-icons';
import { errorMessage } from '../../../lib/api';
import { fetchVersionBytes } from '../api/images-api';
import { downloadName, saveBlob } from '../lib/download';
import { IMAGE_PATHS } from '../paths';
import { DownloadIcon } from './icons';
import { iconButton, VersionImage } from './parts';
import { modelName } from '@parley/ui/chat';

/** The aspect ratio a card keeps while its picture loads ("16:9" → 16 / 9). */
export const ratioStyle = (ratio: string | null | undefined) => {
  const [w, h] = (ratio ?? '1:1').split(':').map(Number);
  return { aspectRatio: w && h ? `${w} / ${h}` : '1 / 1' };
};

/**
 * One image in the results or the history: its current version, its prompt, model and date, and what can be done with
 * it (download, copy the prompt, edit, delete).
 */
export function ImageCard({ image, onDelete }: { image: Image; onDelete: (image: Image) => void }) {
  const { t, i18n } = useTranslation('images');
  const id = useId();
  const [downloading, setDownloading] = useState(false);
  const version = image.versions.at(-1);
  const description = image.prompt ?? image.name;
  const info = image.model ? imageModelInfo(image.model) : undefined;
  const model = info ? modelName(t, info) : image.model;

  const download = async () => {
    if (!version) return;
    setDownloading(true);
    try {
      saveBlob(await fetchVersionBytes(version.id), downloadName(image, version));
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setDownloading(false);
    }
  };

  const copyPrompt = async () => {
    if (!image.prompt) return;
    try {
      await navigator.clipboard.writeText(image.prompt);
      toast.success(t('card.copied'));
    } catch {
      toast.error(t('card.copyFailed'));
    }
  };

  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900">
      {version ? (
        <VersionImage
          versionId={version.id}
          size="thumb"
          alt={description}
          className="w-full"
          style={ratioStyle(image.aspectRatio ?? `${version.width}:${version.height}`)}
        />
      ) : null}
      <div className="flex flex-1 flex-col gap-2 p-3">
        <p id={`${id}-prompt`} className="line-clamp-2 text-sm text-zinc-900 dark:text-zinc-100" title={description}>
          {description}
        </p>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {[model, formatDate(image.createdAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <div className="mt-auto flex flex-wrap items-center gap-1" role="group" aria-labelledby={`${id}-prompt`}>
          <button
            type="button"
            className={iconButton}
            onClick={() => void download()}
            disabled={!version || downloading}
            title={t('card.download')}
          >
            {downloading ? <Spinner className="h-4 w-4" /> : <DownloadIcon />}
            <span className="sr-only">{t('card.download')}</span>
          </button>
          {image.prompt && (
            <button type="button" className={iconButton} onClick={() => void copyPrompt()} title={t('card.copyPrompt')}>
              <CopyIcon />
              <span className="sr-only">{t('card.copyPrompt')}</span>
            </button>
          )}
          <Link to={IMAGE_PATHS.edit(image.id)} className={iconButton} title={t('card.edit')}>
            <PencilIcon />
            <span className="sr-only">{t('card.edit')}</span>
          </Link>
          <button
            type="button"
            className={`${iconButton} ml-auto hover:text-red-600 dark:hover:text-red-400`}
            onClick={() => onDelete(image)}
            title={t('card.delete')}
          >
            <TrashIcon />
            <span className="sr-only">{t('card.delete')}</span>
          </button>
        </div>
      </div>
    </li>
  );
}
