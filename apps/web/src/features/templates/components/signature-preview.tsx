import { useTranslation } from 'react-i18next';
import { cleanSignatureHtml, PREVIEW_SANDBOX, previewDocument } from '../lib/signature-html';

/**
 * The signature "as the mail will show it", in a frame of its own: sandboxed without scripts (and without this
 * app's origin), its document allowing no script by its own policy too. The HTML is cleaned again here, whatever
 * its source.
 */
export function SignaturePreview({
  html,
  className,
  alone = false,
}: {
  html: string;
  className?: string;
  /** The signature without the sample mail above it (a list's thumbnail). */
  alone?: boolean;
}) {
  const { t, i18n } = useTranslation('templates');
  const doc = previewDocument(cleanSignatureHtml(html), {
    lang: i18n.language,
    greeting: alone ? null : t('signatureEditor.sampleGreeting'),
    body: alone ? null : t('signatureEditor.sampleBody'),
  });
  return (
    <iframe
      title={t('signatureEditor.previewFrame')}
      sandbox={PREVIEW_SANDBOX}
      srcDoc={doc}
      referrerPolicy="no-referrer"
      loading="lazy"
      className={className ?? 'h-72 w-full rounded-md border border-zinc-200 bg-white dark:border-zinc-800'}
    />
  );
}
