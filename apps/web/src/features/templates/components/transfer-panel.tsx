import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SHORTCUT_TRIGGER, type ImportBody } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, Card } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useFetchEverything, useImportTemplates } from '../api/templates-api';
import { buildExport, checkImport, downloadJson, exportFileName, IMPORT_FILE_MAX_BYTES } from '../lib/transfer';
import { DownloadIcon, UploadIcon } from './icons';

type Counts = { templates: number; signatures: number; shortcuts: number };
type Outcome =
  | { tone: 'success'; counts: Counts; skipped: string[] }
  | { tone: 'error'; text: string }
  | { tone: 'info'; text: string };

/**
 * Export everything (templates, signatures, shortcuts) as one JSON file, and import such a file: it is checked here
 * with the contract's schema first, then added to what the person has; shortcuts whose key they already use are
 * left as they are and named.
 */
export function TransferPanel() {
  const { t, i18n } = useTranslation('templates');
  const id = useId();
  const fetchEverything = useFetchEverything();
  const importer = useImportTemplates();
  const file = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);
  const [pending, setPending] = useState<{ body: ImportBody; counts: Counts; name: string } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const n = (value: number) => formatNumber(value, i18n.language);
  const countsText = (c: Counts) =>
    t('transfer.counts', { templates: n(c.templates), signatures: n(c.signatures), shortcuts: n(c.shortcuts) });

  const onExport = async () => {
    setExporting(true);
    setOutcome(null);
    try {
      const everything = await fetchEverything();
      const name = exportFileName();
      downloadJson(buildExport(everything), name);
      setOutcome({
        tone: 'info',
        text: t('transfer.exported', {
          file: name,
          counts: countsText({
            templates: everything.templates.length,
            signatures: everything.signatures.length,
            shortcuts: everything.shortcuts.length,
          }),
        }),
      });
    } catch (error) {
      setOutcome({ tone: 'error', text: errorMessage(error) });
    } finally {
      setExporting(false);
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setOutcome(null);
    if (chosen.size > IMPORT_FILE_MAX_BYTES) {
      setOutcome({ tone: 'error', text: t('transfer.tooLarge') });
      return;
    }
    const check = checkImport(await chosen.text());
    if (!check.ok) {
      setOutcome({
        tone: 'error',
        text:
          check.reason === 'notJson'
            ? t('transfer.notJson')
            : check.where
              ? t('transfer.notExportAt', { where: check.where })
              : t('transfer.notExport'),
      });
      return;
    }
    const { templates, signatures, shortcuts } = check.counts;
    if (templates + signatures + shortcuts === 0) {
      setOutcome({ tone: 'info', text: t('transfer.nothing') });
      return;
    }
    setPending({ body: check.body, counts: check.counts, name: chosen.name });
  };

  const onImport = () => {
    if (!pending) return;
    importer.mutate(pending.body, {
      onSuccess: (result) => {
        setPending(null);
        setOutcome({ tone: 'success', counts: result, skipped: result.skippedKeys });
      },
      onError: (error) => {
        setPending(null);
        setOutcome({ tone: 'error', text: errorMessage(error) });
      },
    });
  };

  return (
    <Card className="space-y-3">
      <div>
        <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-50">{t('transfer.title')}</h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('transfer.intro')}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" loading={exporting} onClick={() => void onExport()}>
          {!exporting && <DownloadIcon width="1em" height="1em" />}
          {t('transfer.export')}
        </Button>
        <Button variant="secondary" loading={importer.isPending} onClick={() => file.current?.click()}>
          {!importer.isPending && <UploadIcon width="1em" height="1em" />}
          {t('transfer.import')}
        </Button>
        <input
          ref={file}
          id={`${id}-file`}
          type="file"
          accept="application/json,.json"
          className="sr-only"
          tabIndex={-1}
          aria-label={t('transfer.chooseFile')}
          onChange={(e) => void onFile(e)}
        />
      </div>
      {outcome?.tone === 'success' && (
        <Alert tone="success" className="space-y-1">
          <p>{t('transfer.done', { counts: countsText(outcome.counts) })}</p>
          {outcome.skipped.length > 0 && (
            <p>
              {t('transfer.skipped', {
                keys: outcome.skipped.map((key) => `${DEFAULT_SHORTCUT_TRIGGER}${key}`).join(', '),
              })}
            </p>
          )}
        </Alert>
      )}
      {outcome && outcome.tone !== 'success' && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <ConfirmDialog
        open={pending !== null}
        title={t('transfer.confirmTitle', { file: pending?.name ?? '' })}
        description={pending ? `${countsText(pending.counts)}. ${t('transfer.confirmBody')}` : undefined}
        confirmLabel={t('transfer.import')}
        cancelLabel={t('cancel')}
        tone="primary"
        busy={importer.isPending}
        onConfirm={onImport}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
