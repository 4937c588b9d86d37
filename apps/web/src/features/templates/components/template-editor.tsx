import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import {
  fillTemplate,
  TEMPLATE_BODY_MAX,
  TEMPLATE_KINDS,
  TEMPLATE_TITLE_MAX,
  TEMPLATE_VARIABLES,
  templateInputSchema,
  type Template,
  type TemplateKind,
  type TemplateVariable,
} from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, ArrowLeftIcon, Button, Card, SelectField, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/current-user';
import { useDeleteTemplate, useSaveTemplate, useTemplate } from '../api/templates-api';
import { insertAt, placeholder, sampleValues } from '../lib/variables';
import { TEMPLATE_PATHS } from '../paths';
import { SparkIcon } from './icons';
import { invalidClasses, TemplatesSection, textareaClasses } from './section';
import { StyleFields, type Style } from './style-fields';

type Fields = { kind: TemplateKind; title: string; body: string } & Style;

/** What the chooser hands the editor: an AI draft or an example, not saved yet. */
export type EditorDraft = { draft: Fields; source: 'ai' | 'starter' };

const EMPTY: Fields = { kind: 'mail', title: '', body: '', language: null, tone: null, length: null };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const fieldsOf = (template: Template): Fields => ({
  kind: template.kind,
  title: template.title,
  body: template.body,
  language: template.language,
  tone: template.tone,
  length: template.length,
});

type Problems = Partial<Record<'title' | 'body', string>>;

/** The preview: the text with the variables filled with sample values (as on a page where it is used). */
function Preview({ body }: { body: string }) {
  const { t, i18n } = useTranslation('templates');
  const user = useCurrentUser();
  const id = useId();
  const samples = useMemo(
    () => sampleValues(t, i18n.language, user.data?.fullName || user.data?.name),
    [t, i18n.language, user.data?.fullName, user.data?.name],
  );
  const used = TEMPLATE_VARIABLES.filter((name) => body.includes(placeholder(name)));
  return (
    <Card className="space-y-3 lg:sticky lg:top-20">
      <div>
        <h2 id={`${id}-title`} className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
          {t('editor.preview')}
        </h2>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('editor.previewHint')}</p>
      </div>
      <div
        role="region"
        aria-labelledby={`${id}-title`}
        aria-live="polite"
        data-testid="template-preview"
        className="min-h-24 whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm text-zinc-900 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100"
      >
        {body.trim() ? (
          fillTemplate(body, samples)
        ) : (
          <span className="text-zinc-500 dark:text-zinc-400">{t('editor.previewEmpty')}</span>
        )}
      </div>
      {used.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          {used.map((name) => (
            <div key={name} className="contents">
              <dt className="font-mono text-zinc-500 dark:text-zinc-400">{placeholder(name)}</dt>
              <dd className="min-w-0 truncate text-zinc-700 dark:text-zinc-300">{samples[name]}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

function EditorForm({
  id,
  initial,
  source,
}: {
  id: string | undefined;
  initial: Fields;
  source?: EditorDraft['source'];
}) {
  const { t, i18n } = useTranslation('templates');
  const formId = useId();
  const navigate = useNavigate();
  const save = useSaveTemplate();
  const remove = useDeleteTemplate();
  const [fields, setFields] = useState<Fields>(initial);
  const [problems, setProblems] = useState<Problems>({});
  const [asking, setAsking] = useState(false);
  const body = useRef<HTMLTextAreaElement>(null);
  const n = (value: number) => formatNumber(value, i18n.language);

  const set = (patch: Partial<Fields>) => setFields((current) => ({ ...current, ...patch }));

  const insertVariable = (name: TemplateVariable) => {
    const area = body.current;
    const start = area?.selectionStart ?? fields.body.length;
    const end = area?.selectionEnd ?? fields.body.length;
    const next = insertAt(fields.body, start, end, placeholder(name));
    set({ body: next.value });
    setProblems((p) => ({ ...p, body: undefined }));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(next.caret, next.caret);
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = templateInputSchema.safeParse(fields);
    if (!parsed.success) {
      const next: Problems = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field !== 'title' && field !== 'body') continue;
        const max = field === 'title' ? TEMPLATE_TITLE_MAX : TEMPLATE_BODY_MAX;
        next[field] ??= issue.code === 'too_big' ? t('editor.tooLong', { max: n(max) }) : t(`editor.${field}Required`);
      }
      setProblems(next);
      document.getElementById(`${formId}-${next.title ? 'title' : 'body'}`)?.focus();
      return;
    }
    save.mutate(
      { ...(id ? { id } : {}), input: parsed.data },
      {
        onSuccess: (answer) => {
          if (id) {
            toast.success(answer.message || t('editor.saved'));
            setFields(fieldsOf(answer.data));
          } else {
            toast.success(answer.message || t('editor.created'));
            void navigate(TEMPLATE_PATHS.list);
          }
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const onDelete = () => {
    if (!id) return;
    remove.mutate(id, {
      onSuccess: (answer) => {
        toast.success(answer.message || t('list.deleted'));
        void navigate(TEMPLATE_PATHS.list, { replace: true });
      },
      onError: (error) => {
        setAsking(false);
        toast.error(errorMessage(error));
      },
    });
  };

  return (
    <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,0.8fr)]">
      <Card>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {source === 'ai' && (
            <Alert tone="info" className="flex items-start gap-2">
              <SparkIcon className="mt-0.5 shrink-0" width="1em" height="1em" />
              <span>{t('ai.draftNote')}</span>
            </Alert>
          )}
          {source === 'starter' && <Alert tone="info">{t('starters.draftNote')}</Alert>}
          <SelectField
            label={t('editor.kind')}
            value={fields.kind}
            onChange={(e) => set({ kind: e.target.value as TemplateKind })}
            options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
            hint={t(`kindHints.${fields.kind}`)}
          />
          <TextField
            id={`${formId}-title`}
            label={t('editor.title')}
            value={fields.title}
            maxLength={TEMPLATE_TITLE_MAX}
            error={problems.title}
            onChange={(e) => {
              set({ title: e.target.value });
              setProblems((p) => ({ ...p, title: undefined }));
            }}
          />
          <div className="space-y-1.5">
            <label htmlFor={`${formId}-body`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('editor.body')}
            </label>
            <div
              role="toolbar"
              aria-label={t('editor.insertVariable')}
              aria-controls={`${formId}-body`}
              className="flex flex-wrap items-center gap-1.5"
            >
              <span className="mr-1 text-xs text-zinc-500 dark:text-zinc-400" aria-hidden="true">
                {t('editor.insertVariable')}
              </span>
              {TEMPLATE_VARIABLES.map((name) => (
                <button
                  key={name}
                  type="button"
                  onClick={() => insertVariable(name)}
                  aria-label={t('editor.insertNamed', { name: t(`variables.${name}`) })}
                  className={cn(
                    'rounded-full border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 hover:border-blue-400 hover:text-blue-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:text-blue-300',
                    focusRing,
                  )}
                >
                  {t(`variables.${name}`)}
                </button>
              ))}
            </div>
            <textarea
              ref={body}
              id={`${formId}-body`}
              rows={10}
              value={fields.body}
              maxLength={TEMPLATE_BODY_MAX}
              aria-invalid={problems.body ? true : undefined}
              aria-describedby={`${formId}-body-note`}
              onChange={(e) => {
                set({ body: e.target.value });
                setProblems((p) => ({ ...p, body: undefined }));
              }}
              className={cn(textareaClasses, 'font-[inherit]', problems.body && invalidClasses)}
            />
            <div id={`${formId}-body-note`} className="flex justify-between gap-3 text-xs">
              {problems.body ? (
                <p role="alert" className="text-red-600 dark:text-red-400">
                  {problems.body}
                </p>
              ) : (
                <p className="text-zinc-500 dark:text-zinc-400">{t('editor.variablesHint')}</p>
              )}
              <p className="shrink-0 tabular-nums text-zinc-500 dark:text-zinc-400">
                {t('editor.characters', { used: n(fields.body.length), max: n(TEMPLATE_BODY_MAX) })}
              </p>
            </div>
          </div>
          <StyleFields value={fields} onChange={(style) => set(style)} />
          <div className="flex flex-wrap items-center gap-2 pt-1">
            <Button type="submit" loading={save.isPending}>
              {t('editor.save')}
            </Button>
            <Link
              to={TEMPLATE_PATHS.list}
              className={cn(
                'rounded-md px-3 py-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
                focusRing,
              )}
            >
              {t('editor.cancel')}
            </Link>
            {id && (
              <Button
                variant="ghost"
                className="ml-auto text-red-700 dark:text-red-400"
                onClick={() => setAsking(true)}
              >
                {t('list.delete')}
              </Button>
            )}
          </div>
        </form>
      </Card>
      <Preview body={fields.body} />
      <ConfirmDialog
        open={asking}
        title={t('confirmDelete.title', { title: fields.title || initial.title })}
        description={t('confirmDelete.body')}
        confirmLabel={t('list.delete')}
        cancelLabel={t('cancel')}
        busy={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}

/**
 * /template/new and /template/{id}: kind, title, text, language, tone and length, a toolbar to insert variables, and
 * a live preview with the variables filled with sample values. A new one may start from an AI draft or an example
 * (`draft`), or with a kind (`kind`); nothing is saved until Save.
 */
export function TemplateEditor({ id, draft, kind }: { id?: string; draft?: EditorDraft | null; kind?: string | null }) {
  const { t } = useTranslation('templates');
  const valid = id === undefined || UUID.test(id);
  const template = useTemplate(valid ? id : undefined);
  const title = id ? t('editor.editTitle') : t('editor.newTitle');

  let content;
  if (!valid || (template.isError && (template.error as { status?: number }).status === 404)) {
    content = (
      <Alert tone="error" className="space-y-2">
        <p>{t('editor.notFound')}</p>
        <Link to={TEMPLATE_PATHS.list} className={cn('font-medium underline', focusRing)}>
          {t('editor.back')}
        </Link>
      </Alert>
    );
  } else if (id && template.isError) {
    content = (
      <Alert tone="error" className="space-y-2">
        <p>{errorMessage(template.error)}</p>
        <Button variant="secondary" onClick={() => void template.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (id && !template.data) {
    content = (
      <Card className="space-y-3" aria-busy="true">
        <SkeletonBar className="h-9 w-1/2" />
        <SkeletonBar className="h-9 w-full" />
        <SkeletonBar className="h-40 w-full" />
      </Card>
    );
  } else {
    const initial: Fields = template.data
      ? fieldsOf(template.data)
      : (draft?.draft ?? {
          ...EMPTY,
          kind: (TEMPLATE_KINDS as readonly string[]).includes(kind ?? '') ? (kind as TemplateKind) : 'mail',
        });
    content = <EditorForm key={id ?? 'new'} id={id} initial={initial} source={id ? undefined : draft?.source} />;
  }

  return (
    <TemplatesSection title={title} nav={false}>
      <Link
        to={TEMPLATE_PATHS.list}
        className={cn(
          '-mt-2 inline-flex items-center gap-1.5 rounded text-sm font-medium text-blue-700 hover:underline dark:text-blue-300',
          focusRing,
        )}
      >
        <ArrowLeftIcon width="1em" height="1em" />
        {t('editor.back')}
      </Link>
      {content}
    </TemplatesSection>
  );
}
