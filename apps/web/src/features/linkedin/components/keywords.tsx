import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KEYWORD_MAX, KEYWORDS_MAX, WORD_LIST_MAX, type Keyword } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Button, Card, CardTitle, TextField, cn } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { switchClasses } from '@parley/ui/settings';
import { toast } from '../../../lib/toast';
import { useDeleteKeyword, useKeywords, useLinkedinSettings, useSaveKeyword } from '../api/linkedin-api';
import { joinCommaList, splitCommaList, useLoaderWhile } from '../lib/linkedin-lib';
import { EngageSettings } from './engage-settings';
import { CallError, Empty, LinkedinSection } from './section';

type Form = { keyword: string; avoid: string; include: string; active: boolean };
const EMPTY: Form = { keyword: '', avoid: '', include: '', active: true };

/** A keyword's fields: the keyword, comma-separated words to avoid and to include (spec §5, not guaranteed). */
function KeywordForm({ initial, editingId, onDone }: { initial: Form; editingId?: string; onDone?: () => void }) {
  const { t } = useTranslation('linkedin');
  const save = useSaveKeyword();
  const id = useId();
  const [form, setForm] = useState<Form>(initial);
  const [tried, setTried] = useState(false);
  const avoid = splitCommaList(form.avoid);
  const include = splitCommaList(form.include);
  const keywordError = tried && !form.keyword.trim() ? t('keywords.keywordRequired') : undefined;
  const avoidError = avoid.length > WORD_LIST_MAX ? t('keywords.tooMany', { max: WORD_LIST_MAX }) : undefined;
  const includeError = include.length > WORD_LIST_MAX ? t('keywords.tooMany', { max: WORD_LIST_MAX }) : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!form.keyword.trim() || avoidError || includeError) return;
    const input = { keyword: form.keyword.trim(), avoid, include, active: form.active };
    save.mutate(editingId ? { id: editingId, input } : { input }, {
      onSuccess: () => {
        toast.success(editingId ? t('keywords.updated') : t('keywords.added'));
        if (!editingId) setForm(EMPTY);
        setTried(false);
        onDone?.();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <TextField
        id={`${id}-keyword`}
        label={t('keywords.keyword')}
        value={form.keyword}
        maxLength={KEYWORD_MAX}
        error={keywordError}
        onChange={(e) => setForm({ ...form, keyword: e.target.value })}
        placeholder={t('keywords.keywordPlaceholder')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${id}-avoid`}
          label={t('keywords.avoid')}
          hint={t('keywords.commaHint')}
          value={form.avoid}
          error={avoidError}
          onChange={(e) => setForm({ ...form, avoid: e.target.value })}
          placeholder={t('keywords.avoidPlaceholder')}
        />
        <TextField
          id={`${id}-include`}
          label={t('keywords.include')}
          hint={t('keywords.commaHint')}
          value={form.include}
          error={includeError}
          onChange={(e) => setForm({ ...form, include: e.target.value })}
          placeholder={t('keywords.includePlaceholder')}
        />
      </div>
      <label className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
        <input
          type="checkbox"
          role="switch"
          checked={form.active}
          onChange={(e) => setForm({ ...form, active: e.target.checked })}
          className={switchClasses}
        />
        {t('keywords.active')}
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={save.isPending}>
          {editingId ? t('keywords.save') : t('keywords.add')}
        </Button>
        {onDone && editingId && (
          <Button variant="ghost" onClick={onDone}>
            {t('common:actions.cancel')}
          </Button>
        )}
      </div>
      {save.isError && <CallError error={save.error} />}
    </form>
  );
}

function KeywordItem({ keyword }: { keyword: Keyword }) {
  const { t, i18n } = useTranslation('linkedin');
  const save = useSaveKeyword();
  const remove = useDeleteKeyword();
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);

  if (editing) {
    return (
      <Card>
        <KeywordForm
          editingId={keyword.id}
          initial={{
            keyword: keyword.keyword,
            avoid: joinCommaList(keyword.avoid),
            include: joinCommaList(keyword.include),
            active: keyword.active,
          }}
          onDone={() => setEditing(false)}
        />
      </Card>
    );
  }
  return (
    <Card className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-zinc-900 dark:text-zinc-100">{keyword.keyword}</p>
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <input
            type="checkbox"
            role="switch"
            checked={keyword.active}
            aria-label={t('keywords.activeFor', { keyword: keyword.keyword })}
            onChange={(e) => save.mutate({ id: keyword.id, input: { active: e.target.checked } })}
            className={switchClasses}
          />
          {keyword.active ? t('keywords.on') : t('keywords.off')}
        </label>
      </div>
      <dl className="space-y-1 text-sm">
        <div>
          <dt className="inline text-zinc-500">{t('format.label', { label: t('keywords.avoid') })} </dt>
          <dd className="inline text-zinc-800 dark:text-zinc-200">{joinCommaList(keyword.avoid) || '—'}</dd>
        </div>
        <div>
          <dt className="inline text-zinc-500">{t('format.label', { label: t('keywords.include') })} </dt>
          <dd className="inline text-zinc-800 dark:text-zinc-200">{joinCommaList(keyword.include) || '—'}</dd>
        </div>
        <div>
          <dt className="inline text-zinc-500">{t('format.label', { label: t('keywords.draftsToday') })} </dt>
          <dd className="inline text-zinc-800 dark:text-zinc-200">
            {formatNumber(keyword.draftsToday, i18n.language)}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" className="px-3 py-1" onClick={() => setEditing(true)}>
          {t('keywords.edit')}
        </Button>
        <Button variant="ghost" className="px-3 py-1 text-red-600" onClick={() => setAsking(true)}>
          {t('keywords.delete')}
        </Button>
      </div>
      {(save.isError || remove.isError) && <CallError error={save.error ?? remove.error} />}
      <ConfirmDialog
        open={asking}
        title={t('keywords.deleteTitle', { keyword: keyword.keyword })}
        confirmLabel={t('keywords.delete')}
        cancelLabel={t('common:actions.cancel')}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(keyword.id, {
            onSettled: () => setAsking(false),
            onSuccess: () => toast.success(t('keywords.deleted')),
          })
        }
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}

/** /automation/keywords: Engage on Keywords. */
export function KeywordsPage() {
  const { t, i18n } = useTranslation('linkedin');
  const keywords = useKeywords();
  const settings = useLinkedinSettings();
  useLoaderWhile(keywords.isPending || settings.isPending, 'getPostsByKeyword');
  const list = keywords.data ?? [];
  return (
    <LinkedinSection title={t('keywords.title')} intro={t('keywords.intro')}>
      <p className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950/40 dark:text-blue-100">
        {t('keywords.notGuaranteed')}
      </p>
      <Card className="space-y-3">
        <CardTitle>{t('keywords.addTitle')}</CardTitle>
        {list.length >= KEYWORDS_MAX ? (
          <p className="text-sm text-zinc-600">{t('keywords.full', { max: KEYWORDS_MAX })}</p>
        ) : (
          <KeywordForm initial={EMPTY} />
        )}
      </Card>
      <section className="space-y-3" aria-labelledby="keywords-list">
        <h2 id="keywords-list" className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">
          {t('keywords.listTitle', { n: formatNumber(list.length, i18n.language) })}
        </h2>
        {keywords.isError && <CallError error={keywords.error} />}
        {keywords.data && list.length === 0 && <Empty>{t('keywords.none')}</Empty>}
        <ul className="space-y-3">
          {list.map((k) => (
            <li key={k.id}>
              <KeywordItem keyword={k} />
            </li>
          ))}
        </ul>
      </section>
      {settings.isError && <CallError error={settings.error} />}
      {settings.data && <EngageSettings settings={settings.data} />}
      <p className={cn('text-xs text-zinc-500')}>{t('keywords.firstDrafts')}</p>
    </LinkedinSection>
  );
}
