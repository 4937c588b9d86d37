import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, ImageIcon, LinkIcon } from '@parley/ui/action-icons';
import { safeUrl } from '@parley/ui/markdown';
import { Spinner, cn, focusRing } from '@parley/ui';
import type { Attachment } from '@parley/contract';
import { attachmentBytes, useAttachmentUrl } from '../api/chat-api';
import { formatFileSize } from '@parley/i18n';
import type { LocalFile } from './use-chat-session';

const chipClass =
  'inline-flex max-w-60 items-center gap-2 rounded-lg border border-zinc-200 bg-white px-2 py-1.5 text-left text-xs text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200';

function StoredImage({ attachment }: { attachment: Attachment }) {
  const { t } = useTranslation('chat');
  const { url, failed } = useAttachmentUrl(attachment.id);
  if (failed) {
    return (
      <span className={chipClass}>
        <ImageIcon className="shrink-0 text-zinc-400" />
        <span className="truncate">{attachment.name}</span>
      </span>
    );
  }
  if (!url) return <span className="block h-24 w-24 animate-pulse rounded-lg bg-zinc-200 dark:bg-zinc-800" />;
  return (
    <a href={url} target="_blank" rel="noreferrer" className={cn('block rounded-lg', focusRing)}>
      <img
        src={url}
        alt={t('message.imageAlt', { name: attachment.name })}
        className="h-24 max-w-48 rounded-lg border border-zinc-200 object-cover dark:border-zinc-700"
      />
    </a>
  );
}

/** A stored PDF opens in a new tab; its bytes need the bearer header, so they are fetched on click. */
function StoredPdf({ attachment }: { attachment: Attachment }) {
  const { t, i18n } = useTranslation('chat');
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    // Opened at once (inside the click) so pop-up blockers allow it, then pointed at the file.
    const tab = window.open('', '_blank');
    try {
      const objectUrl = URL.createObjectURL(await attachmentBytes(attachment.id));
      if (tab) tab.location.href = objectUrl;
      setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
    } catch {
      tab?.close();
    } finally {
      setOpening(false);
    }
  };
  return (
    <button
      type="button"
      onClick={() => void open()}
      className={cn(chipClass, 'hover:bg-zinc-50 dark:hover:bg-zinc-800', focusRing)}
      aria-label={t('message.openFile', { name: attachment.name })}
    >
      <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-300">
        {opening ? <Spinner className="h-4 w-4" /> : <FileIcon />}
      </span>
      <span className="min-w-0">
        <span className="block truncate font-medium">{attachment.name}</span>
        <span className="block text-zinc-500 dark:text-zinc-400">
          {attachment.pageCount
            ? t('message.pdfPages', { pages: attachment.pageCount })
            : formatFileSize(attachment.size, i18n.language)}
        </span>
      </span>
    </button>
  );
}

function PageLink({ url, name }: { url: string; name: string }) {
  const href = safeUrl(url, ['http:', 'https:']);
  const content = (
    <>
      <LinkIcon className="shrink-0 text-zinc-400" />
      <span className="truncate">{name || url}</span>
    </>
  );
  if (!href) return <span className={chipClass}>{content}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={cn(chipClass, 'hover:bg-zinc-50', focusRing)}
    >
      {content}
    </a>
  );
}

/** Files and pages of a question: stored ones (from the history) and ones just sent from this page. */
export function MessageAttachments({
  attachments,
  localFiles,
  url,
}: {
  attachments: Attachment[];
  localFiles: LocalFile[];
  url: string | null;
}) {
  const { t, i18n } = useTranslation('chat');
  if (attachments.length === 0 && localFiles.length === 0 && !url) return null;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {attachments.map((a) =>
        a.kind === 'image' ? (
          <StoredImage key={a.id} attachment={a} />
        ) : a.kind === 'pdf' ? (
          <StoredPdf key={a.id} attachment={a} />
        ) : (
          <PageLink key={a.id} url={a.url ?? ''} name={a.name} />
        ),
      )}
      {localFiles.map((f, i) =>
        f.previewUrl ? (
          <img
            key={`local-${i}`}
            src={f.previewUrl}
            alt={t('message.imageAlt', { name: f.name })}
            className="h-24 max-w-48 rounded-lg border border-zinc-200 object-cover dark:border-zinc-700"
          />
        ) : (
          <span key={`local-${i}`} className={chipClass}>
            <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-300">
              <FileIcon />
            </span>
            <span className="min-w-0">
              <span className="block truncate font-medium">{f.name}</span>
              <span className="block text-zinc-500 dark:text-zinc-400">{formatFileSize(f.size, i18n.language)}</span>
            </span>
          </span>
        ),
      )}
      {url && attachments.every((a) => a.url !== url) && <PageLink url={url} name={url} />}
    </div>
  );
}
