import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, cn } from '@parley/ui';
import { ACCEPT_IMAGES, checkImageFile, droppedFile, type ImageFileProblem } from '../lib/file-checks';
import { UploadIcon } from './icons';

/** Whether a drag carries something droppable (files, or a link dragged from another page). */
const carriesSomething = (event: DragEvent) => {
  const types = Array.from(event.dataTransfer?.types ?? []);
  return types.includes('Files') || types.includes('text/uri-list') || types.includes('text/plain');
};

/**
 * Drag-and-drop for the editor: while something is dragged over `children`, a frame says where to drop; a dropped
 * file is checked (PNG or JPEG by its bytes, within the limit) before `onFile`; a refused one gives its problem.
 */
export function DropArea({
  onFile,
  onProblem,
  disabled = false,
  className,
  children,
}: {
  onFile: (file: File) => void;
  onProblem: (problem: ImageFileProblem) => void;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('images');
  const [over, setOver] = useState(false);

  const onDrag = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !carriesSomething(event)) return;
    // Without this the browser would open a dropped file or link in place of the app.
    event.preventDefault();
    if (event.type === 'dragenter' || event.type === 'dragover') setOver(true);
    else if (event.type === 'dragleave' && !event.currentTarget.contains(event.relatedTarget as Node | null))
      setOver(false);
  };
  const onDrop = async (event: DragEvent<HTMLDivElement>) => {
    if (disabled) return;
    event.preventDefault();
    setOver(false);
    // Read before any await: the drop's data is gone once the event is over.
    const file = droppedFile(event.dataTransfer);
    const check = await checkImageFile(file);
    if (check.ok && file) onFile(file);
    else if (!check.ok) onProblem(check.problem);
  };

  return (
    <div
      className={cn('relative', className)}
      onDragEnter={onDrag}
      onDragOver={onDrag}
      onDragLeave={onDrag}
      onDrop={(e) => void onDrop(e)}
      data-testid="image-drop-area"
    >
      {children}
      {over && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 z-20 flex items-center justify-center rounded-xl border-2 border-dashed border-blue-500 bg-blue-50/80 text-sm font-medium text-blue-700 dark:bg-blue-950/70 dark:text-blue-200"
        >
          {t('upload.dropHere')}
        </div>
      )}
    </div>
  );
}

/** A button that opens the file picker; the chosen file is checked like a dropped one. */
export function PickImageButton({
  onFile,
  onProblem,
  label,
  variant = 'secondary',
  disabled,
  loading,
}: {
  onFile: (file: File) => void;
  onProblem: (problem: ImageFileProblem) => void;
  label: string;
  variant?: 'primary' | 'secondary';
  disabled?: boolean;
  loading?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant={variant} onClick={() => input.current?.click()} disabled={disabled} loading={loading}>
        {!loading && <UploadIcon width="1.1em" height="1.1em" />}
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT_IMAGES}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="image-file-input"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          const check = await checkImageFile(file, 'picked');
          if (check.ok && file) onFile(file);
          else if (!check.ok) onProblem(check.problem);
        }}
      />
    </>
  );
}

/** The editor before an image is open: drop one here or choose a file. */
export function UploadZone({
  onFile,
  onProblem,
  busy,
}: {
  onFile: (file: File) => void;
  onProblem: (problem: ImageFileProblem) => void;
  busy: boolean;
}) {
  const { t } = useTranslation('images');
  const id = useId();
  return (
    <DropArea onFile={onFile} onProblem={onProblem} disabled={busy}>
      <div
        className="flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-zinc-300 bg-white px-4 py-12 text-center dark:border-zinc-700 dark:bg-zinc-900"
        aria-labelledby={`${id}-title`}
        role="group"
      >
        <UploadIcon className="h-10 w-10 text-zinc-400" />
        <p id={`${id}-title`} className="font-medium text-zinc-900 dark:text-zinc-50">
          {t('upload.title')}
        </p>
        <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{t('upload.body')}</p>
        <PickImageButton
          variant="primary"
          onFile={onFile}
          onProblem={onProblem}
          label={t('upload.choose')}
          loading={busy}
        />
      </div>
    </DropArea>
  );
}
