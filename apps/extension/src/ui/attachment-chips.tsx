import type { AttachedFile } from '../platform/messaging/protocol';
import { CloseIcon } from './icons';
import { chip, removeButton } from './styles';

/** The files waiting for the next question, as chips of the composer: a thumbnail (or PDF badge), the name, ×. */
export function AttachmentChips({
  files,
  removeLabel,
  onRemove,
}: {
  files: AttachedFile[];
  removeLabel: (name: string) => string;
  onRemove: (id: string) => void;
}) {
  return (
    <>
      {files.map((file) => (
        <li key={file.id} className={`${chip} max-w-56`} data-testid="attachment-chip" data-kind={file.kind}>
          {file.kind === 'image' ? (
            <img
              className="h-8 w-8 shrink-0 rounded-md border border-zinc-200 bg-white object-cover dark:border-zinc-700"
              src={file.dataUrl}
              alt={file.name}
            />
          ) : (
            <span
              className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-red-50 text-[0.625rem] font-bold text-red-600 dark:bg-red-500/10 dark:text-red-300"
              aria-hidden="true"
            >
              PDF
            </span>
          )}
          <span className="min-w-0 flex-1 truncate font-medium text-zinc-800 dark:text-zinc-100" title={file.name}>
            {file.name}
          </span>
          <button
            type="button"
            className={removeButton}
            aria-label={removeLabel(file.name)}
            onClick={() => onRemove(file.id)}
          >
            <CloseIcon width="0.9em" height="0.9em" />
          </button>
        </li>
      ))}
    </>
  );
}
