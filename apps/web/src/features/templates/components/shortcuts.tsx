import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import {
  DEFAULT_SHORTCUT_TRIGGER,
  SHORTCUT_KEY_MAX,
  SHORTCUT_KEY_PATTERN,
  SHORTCUT_TEXT_MAX,
  TEMPLATE_AI_PROMPT_MAX,
  type Shortcut,
} from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, Card, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { PencilIcon, PlusIcon, TrashIcon } from '@parley/ui/action-icons';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { ApiError, errorMessage } from '../../../lib/api';
import {
  useDeleteShortcut,
  useSaveShortcut,
  useShortcutDraft,
  useShortcutExists,
  useShortcuts,
} from '../api/templates-api';
import { ShortcutIcon, SparkIcon } from './icons';
import { AiRefusal, invalidClasses, TemplatesSection, textareaClasses } from './section';

/** How long the key must stay unchanged before the server is asked whether it is taken. */
export const KEY_CHECK_DELAY_MS = 350;

const trigger = DEFAULT_SHORTCUT_TRIGGER;

/** The key as the server keeps it. */
const normalize = (key: string) => key.trim().toLowerCase();

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

type KeyState =
  | { state: 'empty' }
  | { state: 'invalid' }
  | { state: 'checking' }
  | { state: 'taken' }
  | { state: 'free' }
  | { state: 'unchanged' }
  | { state: 'unknown' };

/** What can be said of a key as it is typed: its pattern at once, whether it is already one's own after a pause. */
function useKeyState(typed: string, original: string | null): KeyState {
  const key = normalize(typed);
  const valid = SHORTCUT_KEY_PATTERN.test(key);
  const settled = useDebounced(key, KEY_CHECK_DELAY_MS);
  const ask = valid && key === settled && key !== original ? key : '';
  const exists = useShortcutExists(ask);
  if (!key) return { state: 'empty' };
  if (!valid) return { state: 'invalid' };
  if (key === original) return { state: 'unchanged' };
  if (key !== settled || exists.isPending) return { state: 'checking' };
  if (exists.isError) return { state: 'unknown' };
  if (!exists.data.valid) return { state: 'invalid' };
  return exists.data.exists ? { state: 'taken' } : { state: 'free' };
}

function ShortcutForm({
  shortcut,
  plansPath,
  onDone,
}: {
  shortcut: Shortcut | null;
  plansPath: string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('templates');
  const id = useId();
  const save = useSaveShortcut();
  const draft = useShortcutDraft();
  const [key, setKey] = useState(shortcut?.key ?? '');
  const [text, setText] = useState(shortcut?.text ?? '');
  const [prompt, setPrompt] = useState('');
  const [asked, setAsked] = useState(false);
  const [textProblem, setTextProblem] = useState(false);
  const [takenOnSave, setTakenOnSave] = useState<string | null>(null);
  const [aiOpen, setAiOpen] = useState(false);
  const keyState = useKeyState(key, shortcut?.key ?? null);
  const shown = `${trigger}${normalize(key) || 'thx'}`;
  const n = (value: number) => formatNumber(value, i18n.language);

  const keyError =
    takenOnSave ??
    (keyState.state === 'invalid' || (asked && keyState.state === 'empty')
      ? t('shortcuts.keyInvalid', { max: n(SHORTCUT_KEY_MAX) })
      : keyState.state === 'taken'
        ? t('shortcuts.keyTaken', { shortcut: shown })
        : undefined);
  const keyNote =
    keyState.state === 'checking'
      ? t('shortcuts.checking')
      : keyState.state === 'free'
        ? t('shortcuts.keyFree', { shortcut: shown })
        : t('shortcuts.keyHint', { max: n(SHORTCUT_KEY_MAX) });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAsked(true);
    const emptyText = !text.trim();
    setTextProblem(emptyText);
    if (keyState.state === 'empty' || keyState.state === 'invalid' || keyState.state === 'taken') {
      document.getElementById(`${id}-key`)?.focus();
      return;
    }
    if (emptyText) {
      document.getElementById(`${id}-text`)?.focus();
      return;
    }
    save.mutate(
      { ...(shortcut ? { id: shortcut.id } : {}), input: { key: normalize(key), text } },
      {
        onSuccess: (answer) => {
          toast.success(answer.message || t('shortcuts.saved'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'SHORTCUT_KEY_TAKEN') {
            setTakenOnSave(error.message || t('shortcuts.keyTaken', { shortcut: shown }));
            document.getElementById(`${id}-key`)?.focus();
          } else toast.error(errorMessage(error));
        },
      },
    );
  };

  const onDraft = () => {
    if (!prompt.trim()) return;
    draft.mutate(prompt.trim(), {
      onSuccess: (written) => {
        setText(written.slice(0, SHORTCUT_TEXT_MAX));
        setTextProblem(false);
        document.getElementById(`${id}-text`)?.focus();
      },
    });
  };

  return (
    <Card className="space-y-4">
      <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
        {shortcut ? t('shortcuts.editTitle', { shortcut: `${trigger}${shortcut.key}` }) : t('shortcuts.newTitle')}
      </h2>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-key`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('shortcuts.key')}
          </label>
          <div className="flex max-w-sm items-stretch">
            <span
              aria-hidden="true"
              className="inline-flex items-center rounded-l-md border border-r-0 border-zinc-300 bg-zinc-50 px-3 font-mono text-sm text-zinc-600 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
            >
              {trigger}
            </span>
            <input
              id={`${id}-key`}
              value={key}
              maxLength={SHORTCUT_KEY_MAX + 8}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="thx"
              aria-invalid={keyError ? true : undefined}
              aria-describedby={`${id}-key-note`}
              onChange={(e) => {
                setKey(e.target.value);
                setTakenOnSave(null);
              }}
              className={cn(textareaClasses, 'rounded-l-none font-mono', keyError && invalidClasses)}
            />
          </div>
          <p
            id={`${id}-key-note`}
            role={keyError ? 'alert' : 'status'}
            className={cn(
              'text-xs',
              keyError
                ? 'text-red-600 dark:text-red-400'
                : keyState.state === 'free'
                  ? 'text-emerald-700 dark:text-emerald-400'
                  : 'text-zinc-500 dark:text-zinc-400',
            )}
          >
            {keyError ?? keyNote}
          </p>
        </div>

        <div className="space-y-1.5">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <label htmlFor={`${id}-text`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('shortcuts.text')}
            </label>
            <button
              type="button"
              aria-expanded={aiOpen}
              aria-controls={`${id}-ai`}
              onClick={() => setAiOpen((open) => !open)}
              className={cn(
                'inline-flex items-center gap-1 rounded text-sm font-medium text-violet-700 hover:underline dark:text-violet-300',
                focusRing,
              )}
            >
              <SparkIcon width="1em" height="1em" />
              {t('ai.title')}
            </button>
          </div>
          {aiOpen && (
            <div
              id={`${id}-ai`}
              className="space-y-2 rounded-md border border-violet-200 bg-violet-50/50 p-3 dark:border-violet-900 dark:bg-violet-950/30"
            >
              <TextField
                label={t('ai.prompt')}
                placeholder={t('shortcuts.aiPlaceholder')}
                value={prompt}
                maxLength={TEMPLATE_AI_PROMPT_MAX}
                onChange={(e) => setPrompt(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    onDraft();
                  }
                }}
              />
              {draft.isError && <AiRefusal error={draft.error} plansPath={plansPath} />}
              <Button variant="secondary" loading={draft.isPending} disabled={!prompt.trim()} onClick={onDraft}>
                {draft.isPending ? t('ai.writing') : t('ai.write')}
              </Button>
            </div>
          )}
          <textarea
            id={`${id}-text`}
            rows={5}
            value={text}
            maxLength={SHORTCUT_TEXT_MAX}
            aria-invalid={textProblem || undefined}
            aria-describedby={textProblem ? `${id}-text-error` : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setTextProblem(false);
            }}
            className={cn(textareaClasses, textProblem && invalidClasses)}
          />
          {textProblem && (
            <p id={`${id}-text-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
              {t('shortcuts.textRequired')}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={save.isPending}>
            {t('editor.save')}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            {t('cancel')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/**
 * /template/shortcuts: key → text. Typing the trigger and a key in a text box (where the extension works) puts the
 * text there. Keys are checked as they are typed; the text may be written by the AI.
 */
export function Shortcuts({ plansPath }: { plansPath: string }) {
  const { t } = useTranslation('templates');
  const shortcuts = useShortcuts();
  const remove = useDeleteShortcut();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<Shortcut | 'new' | null>(params.get('new') ? 'new' : null);
  const [deleting, setDeleting] = useState<Shortcut | null>(null);
  const [query, setQuery] = useState('');

  const close = () => {
    setEditing(null);
    if (params.has('new')) setParams({}, { replace: true });
  };

  const words = query.trim().toLowerCase();
  const shown = (shortcuts.data ?? []).filter(
    (s) => !words || s.key.includes(words.replace(trigger, '')) || s.text.toLowerCase().includes(words),
  );

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: (answer) => {
        toast.success(answer.message || t('shortcuts.deleted'));
        setDeleting(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setDeleting(null);
      },
    });
  };

  let list;
  if (shortcuts.isError) {
    list = (
      <Alert tone="error" className="m-4 space-y-2">
        <p>{errorMessage(shortcuts.error)}</p>
        <Button variant="secondary" onClick={() => void shortcuts.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (!shortcuts.data) {
    list = (
      <div className="space-y-3 p-4" aria-busy="true">
        <SkeletonBar className="h-12 w-full" />
        <SkeletonBar className="h-12 w-full" />
      </div>
    );
  } else if (shortcuts.data.length === 0) {
    list = (
      <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
        <ShortcutIcon className="h-8 w-8 text-zinc-400" />
        <p className="font-medium text-zinc-900 dark:text-zinc-50">{t('shortcuts.emptyTitle')}</p>
        <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">
          {t('shortcuts.emptyBody', { example: `${trigger}thx` })}
        </p>
      </div>
    );
  } else if (shown.length === 0) {
    list = <p className="px-4 py-8 text-center text-sm text-zinc-600 dark:text-zinc-400">{t('shortcuts.noMatch')}</p>;
  } else {
    list = (
      <ul aria-label={t('shortcuts.label')} className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {shown.map((shortcut) => (
          <li key={shortcut.id} className="flex items-start gap-3 px-3 py-3 sm:px-4">
            <kbd className="mt-0.5 shrink-0 rounded-md border border-zinc-300 bg-zinc-50 px-2 py-0.5 font-mono text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100">
              {trigger}
              {shortcut.key}
            </kbd>
            <p className="line-clamp-2 min-w-0 flex-1 break-words text-sm text-zinc-700 dark:text-zinc-300">
              {shortcut.text}
            </p>
            <div className="flex shrink-0 gap-1">
              <button
                type="button"
                aria-label={t('shortcuts.editNamed', { shortcut: `${trigger}${shortcut.key}` })}
                title={t('shortcuts.editNamed', { shortcut: `${trigger}${shortcut.key}` })}
                onClick={() => setEditing(shortcut)}
                className={cn(
                  'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                  focusRing,
                )}
              >
                <PencilIcon width="1.05em" height="1.05em" />
              </button>
              <button
                type="button"
                aria-label={t('shortcuts.deleteNamed', { shortcut: `${trigger}${shortcut.key}` })}
                title={t('shortcuts.deleteNamed', { shortcut: `${trigger}${shortcut.key}` })}
                onClick={() => setDeleting(shortcut)}
                className={cn(
                  'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-red-400',
                  focusRing,
                )}
              >
                <TrashIcon width="1.05em" height="1.05em" />
              </button>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <TemplatesSection
      title={t('shortcuts.pageTitle')}
      actions={
        editing === null && (
          <Button onClick={() => setEditing('new')}>
            <PlusIcon width="1em" height="1em" />
            {t('shortcuts.new')}
          </Button>
        )
      }
    >
      <Alert tone="info" className="space-y-1">
        <p>{t('shortcuts.intro', { trigger, example: `${trigger}thx` })}</p>
        <p className="text-xs">
          {t('shortcuts.trigger')}{' '}
          <kbd className="rounded border border-blue-300 bg-white px-1.5 font-mono dark:border-blue-800 dark:bg-blue-950">
            {trigger}
          </kbd>{' '}
          · {t('shortcuts.triggerNote')}
        </p>
      </Alert>
      {editing !== null && (
        <ShortcutForm
          key={editing === 'new' ? 'new' : editing.id}
          shortcut={editing === 'new' ? null : editing}
          plansPath={plansPath}
          onDone={close}
        />
      )}
      <Card flush>
        {shortcuts.data && shortcuts.data.length > 0 && (
          <div className="border-b border-zinc-200 p-3 sm:p-4 dark:border-zinc-800">
            <TextField
              type="search"
              label={t('shortcuts.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
        )}
        {list}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={t('shortcuts.confirmDelete', { shortcut: deleting ? `${trigger}${deleting.key}` : '' })}
        description={t('confirmDelete.body')}
        confirmLabel={t('list.delete')}
        cancelLabel={t('cancel')}
        busy={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setDeleting(null)}
      />
    </TemplatesSection>
  );
}
