import type { AttachedFile } from '../../messaging/protocol';
import './capture.css';

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
        <li key={file.id} className="chat-chip capture-chip" data-testid="attachment-chip" data-kind={file.kind}>
          {file.kind === 'image' ? (
            <img className="capture-thumb" src={file.dataUrl} alt={file.name} />
          ) : (
            <span className="capture-pdf" aria-hidden="true">
              PDF
            </span>
          )}
          <span className="capture-name" title={file.name}>
            {file.name}
          </span>
          <button type="button" aria-label={removeLabel(file.name)} onClick={() => onRemove(file.id)}>
            ×
          </button>
        </li>
      ))}
    </>
  );
}
