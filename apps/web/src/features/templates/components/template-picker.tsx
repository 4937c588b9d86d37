import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Template } from '@parley/contract';
import { formatDate } from '@parley/i18n';
import { Alert, Button, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { CheckIcon, CopyIcon } from '@parley/ui/action-icons';
import { errorMessage } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/current-user';
import { useTemplates } from '../api/templates-api';
import { awaitReceipt, findPickerHost, postTemplate, type PickerHost } from '../lib/picker-host';
import { matches } from '../lib/search';
import { fillKnown } from '../lib/variables';
import { TEMPLATE_PATHS } from '../paths';
import { Badge, KIND_TONES } from './section';

/**
 * /template-app (spec §2): the narrow template picker the extension opens. Insert hands the chosen template to the
 * extension that opened it (lib/picker-host: its bridge on this window, or its exact origin), which fills the variables
 * from the page. In the extension's window, the extension says whether the template reached the box, and closes the
 * window when it did. Opened on its own, Copy puts the text on the clipboard with what is known here filled in (one's
 * name, the date) and the rest left as variables.
 */
export function TemplatePicker({ host: givenHost }: { host?: PickerHost }) {
  const { t, i18n } = useTranslation('templates');
  const templates = useTemplates();
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const marked = params.get('from') === 'extension';
  const host = useMemo(() => givenHost ?? findPickerHost(undefined, marked), [givenHost, marked]);
  const [query, setQuery] = useState('');
  const [done, setDone] = useState<{ id: string; text: string; tone: 'success' | 'error' } | null>(null);
  // While the extension has not answered: one template per picker.
  const [sending, setSending] = useState(false);

  const shown = (templates.data ?? []).filter((tpl) => matches(tpl, query));

  const choose = async (template: Template) => {
    if (host.kind === 'bridge') {
      setSending(true);
      setDone({ id: template.id, text: t('picker.sending', { title: template.title }), tone: 'success' });
      const receipt = awaitReceipt();
      postTemplate(host, template);
      const delivered = await receipt;
      setSending(false);
      setDone(
        delivered
          ? { id: template.id, text: t('picker.inserted', { title: template.title }), tone: 'success' }
          : {
              id: template.id,
              text: t(delivered === false ? 'picker.notDelivered' : 'picker.noAnswer'),
              tone: 'error',
            },
      );
      return;
    }
    if (host.kind === 'extension') {
      postTemplate(host, template);
      setDone({ id: template.id, text: t('picker.inserted', { title: template.title }), tone: 'success' });
      return;
    }
    const text = fillKnown(template.body, {
      my_name: user.data?.fullName || user.data?.name || undefined,
      date: formatDate(new Date(), i18n.language),
    });
    try {
      await navigator.clipboard.writeText(text);
      setDone({ id: template.id, text: t('picker.copied', { title: template.title }), tone: 'success' });
    } catch {
      setDone({ id: template.id, text: t('picker.copyFailed'), tone: 'error' });
    }
  };

  let content;
  if (templates.isError) {
    content = (
      <Alert tone="error" className="space-y-2">
        <p>{errorMessage(templates.error)}</p>
        <Button variant="secondary" onClick={() => void templates.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (!templates.data) {
    content = (
      <div className="space-y-2" aria-busy="true">
        <SkeletonBar className="h-16 w-full" />
        <SkeletonBar className="h-16 w-full" />
      </div>
    );
  } else if (templates.data.length === 0) {
    content = (
      <p className="py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('picker.empty')}{' '}
        <Link
          to={TEMPLATE_PATHS.choose}
          className={cn('font-medium text-blue-700 underline dark:text-blue-300', focusRing)}
        >
          {t('list.create')}
        </Link>
      </p>
    );
  } else if (shown.length === 0) {
    content = <p className="py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">{t('picker.noMatch')}</p>;
  } else {
    content = (
      <ul aria-label={t('list.label')} className="space-y-2">
        {shown.map((template) => (
          <li
            key={template.id}
            className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
          >
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <p className="break-words text-sm font-medium text-zinc-900 dark:text-zinc-50">{template.title}</p>
                <div className="mt-0.5">
                  <Badge tone={KIND_TONES[template.kind]}>{t(`kinds.${template.kind}`)}</Badge>
                </div>
              </div>
              <Button
                variant={host.kind !== 'standalone' ? 'primary' : 'secondary'}
                className="shrink-0 px-3 py-1.5"
                disabled={sending}
                aria-label={t(host.kind !== 'standalone' ? 'picker.insertNamed' : 'picker.copyNamed', {
                  title: template.title,
                })}
                onClick={() => void choose(template)}
              >
                {done?.id === template.id && done.tone === 'success' ? (
                  <CheckIcon width="1em" height="1em" />
                ) : host.kind === 'standalone' ? (
                  <CopyIcon width="1em" height="1em" />
                ) : null}
                {host.kind !== 'standalone' ? t('picker.insert') : t('picker.copy')}
              </Button>
            </div>
            <p className="mt-1.5 line-clamp-3 break-words text-xs text-zinc-600 dark:text-zinc-400">{template.body}</p>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="mx-auto max-w-md space-y-3 p-3 sm:p-4">
      <div className="flex items-center justify-between gap-2">
        <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('picker.title')}</h1>
        <Link
          to={TEMPLATE_PATHS.list}
          target={host.kind !== 'standalone' ? '_blank' : undefined}
          className={cn('text-sm font-medium text-blue-700 hover:underline dark:text-blue-300', focusRing)}
        >
          {t('picker.manage')}
        </Link>
      </div>
      {host.kind === 'standalone' && (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('picker.standaloneNote')}</p>
      )}
      <TextField
        type="search"
        label={t('list.search')}
        placeholder={t('list.searchPlaceholder')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div role="status" aria-live="polite">
        {done && (
          <p
            className={cn(
              'rounded-md border px-3 py-2 text-sm',
              done.tone === 'success'
                ? 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-200'
                : 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200',
            )}
          >
            {done.text}
          </p>
        )}
      </div>
      {content}
    </div>
  );
}
