import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { TEMPLATE_AI_PROMPT_MAX, TEMPLATE_KINDS, type TemplateKind } from '@parley/contract';
import { Button, Card, SelectField, cn, focusRing } from '@parley/ui';
import { useTemplateDraft } from '../api/templates-api';
import { TEMPLATE_PATHS } from '../paths';
import type { EditorDraft } from './template-editor';
import { ShortcutIcon, SignatureIcon, SparkIcon, TemplateIcon } from './icons';
import { AiRefusal, Badge, invalidClasses, KIND_TONES, TemplatesSection, textareaClasses } from './section';
import { NO_STYLE, StyleFields, type Style } from './style-fields';

type Starter = { title: string; body: string };

function Choice({ to, icon, title, hint }: { to: string; icon: ReactNode; title: string; hint: string }) {
  return (
    <li>
      <Link
        to={to}
        className={cn(
          'flex h-full items-start gap-3 rounded-xl border border-zinc-200 bg-white p-4 shadow-xs transition-colors hover:border-blue-400 hover:bg-blue-50/40 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-blue-500 dark:hover:bg-blue-500/10',
          focusRing,
        )}
      >
        <span className="mt-0.5 text-blue-600 dark:text-blue-400" aria-hidden="true">
          {icon}
        </span>
        <span className="min-w-0">
          <span className="block font-medium text-zinc-900 dark:text-zinc-50">{title}</span>
          <span className="mt-0.5 block text-sm text-zinc-600 dark:text-zinc-400">{hint}</span>
        </span>
      </Link>
    </li>
  );
}

function AiForm({ plansPath }: { plansPath: string }) {
  const { t } = useTranslation('templates');
  const id = useId();
  const navigate = useNavigate();
  const draft = useTemplateDraft();
  const [kind, setKind] = useState<TemplateKind>('mail');
  const [prompt, setPrompt] = useState('');
  const [style, setStyle] = useState<Style>(NO_STYLE);
  const [missing, setMissing] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const typed = prompt.trim();
    if (!typed) {
      setMissing(true);
      return;
    }
    setMissing(false);
    draft.mutate(
      { prompt: typed, kind, ...style },
      {
        onSuccess: (written) => {
          const state: EditorDraft = {
            draft: { kind, title: written.title, body: written.body, ...style },
            source: 'ai',
          };
          void navigate(TEMPLATE_PATHS.create, { state });
        },
      },
    );
  };

  return (
    <Card className="space-y-4">
      <div>
        <h2
          id={`${id}-title`}
          className="flex items-center gap-2 text-base font-semibold text-zinc-900 dark:text-zinc-50"
        >
          <SparkIcon className="text-violet-600 dark:text-violet-400" />
          {t('ai.title')}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('ai.intro')}</p>
      </div>
      <form onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`} className="space-y-4">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-prompt`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {t('ai.prompt')}
          </label>
          <textarea
            id={`${id}-prompt`}
            rows={3}
            value={prompt}
            maxLength={TEMPLATE_AI_PROMPT_MAX}
            placeholder={t('ai.promptPlaceholder')}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${id}-missing` : undefined}
            onChange={(e) => setPrompt(e.target.value)}
            className={cn(textareaClasses, missing && invalidClasses)}
          />
          {missing && (
            <p id={`${id}-missing`} role="alert" className="text-xs text-red-600 dark:text-red-400">
              {t('ai.required')}
            </p>
          )}
        </div>
        <SelectField
          label={t('editor.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value as TemplateKind)}
          options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
        />
        <StyleFields value={style} onChange={setStyle} />
        {draft.isError && <AiRefusal error={draft.error} plansPath={plansPath} />}
        <Button type="submit" loading={draft.isPending}>
          <SparkIcon width="1em" height="1em" />
          {draft.isPending ? t('ai.writing') : t('ai.write')}
        </Button>
      </form>
    </Card>
  );
}

function Starters() {
  const { t } = useTranslation('templates');
  const id = useId();
  const navigate = useNavigate();
  const [kind, setKind] = useState<TemplateKind>('mail');
  const starters = t(`starters.${kind}`, { returnObjects: true, skipInterpolation: true }) as unknown;
  const list: Starter[] = Array.isArray(starters) ? (starters as Starter[]) : [];

  const use = (starter: Starter) => {
    const state: EditorDraft = {
      draft: { kind, title: starter.title, body: starter.body, ...NO_STYLE },
      source: 'starter',
    };
    void navigate(TEMPLATE_PATHS.create, { state });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
            {t('starters.title')}
          </h2>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('starters.intro')}</p>
        </div>
        <div className="w-full sm:w-56">
          <SelectField
            label={t('editor.kind')}
            value={kind}
            onChange={(e) => setKind(e.target.value as TemplateKind)}
            options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          />
        </div>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2" aria-label={t('starters.listLabel', { kind: t(`kinds.${kind}`) })}>
        {list.map((starter) => (
          <li key={starter.title}>
            <Card className="flex h-full flex-col gap-2 p-4">
              <div className="flex items-start justify-between gap-2">
                <h3 className="font-medium text-zinc-900 dark:text-zinc-50">{starter.title}</h3>
                <Badge tone={KIND_TONES[kind]}>{t(`kinds.${kind}`)}</Badge>
              </div>
              <p className="line-clamp-3 text-sm text-zinc-600 dark:text-zinc-400">{starter.body}</p>
              <div className="mt-auto pt-1">
                <Button
                  variant="secondary"
                  className="px-3 py-1.5"
                  aria-label={t('starters.useNamed', { title: starter.title })}
                  onClick={() => use(starter)}
                >
                  {t('starters.use')}
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /new-template (spec §2 "choose template"): what to make — a reply template for mail, a message template, a
 * custom reply, a signature or a shortcut — a template written by the AI from a sentence, or one of the examples.
 * Drafts open in the editor and are saved only with Save.
 */
export function NewTemplate({ plansPath }: { plansPath: string }) {
  const { t } = useTranslation('templates');
  const id = useId();
  const icon = { width: '1.4em', height: '1.4em' };
  return (
    <TemplatesSection title={t('choose.pageTitle')} nav={false}>
      <section aria-labelledby={`${id}-what`} className="space-y-3">
        <h2 id={`${id}-what`} className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
          {t('choose.title')}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {TEMPLATE_KINDS.map((kind) => (
            <Choice
              key={kind}
              to={`${TEMPLATE_PATHS.create}?kind=${kind}`}
              icon={<TemplateIcon {...icon} />}
              title={t(`kinds.${kind}`)}
              hint={t(`kindHints.${kind}`)}
            />
          ))}
          <Choice
            to={TEMPLATE_PATHS.newSignature}
            icon={<SignatureIcon {...icon} />}
            title={t('choose.signature')}
            hint={t('choose.signatureHint')}
          />
          <Choice
            to={TEMPLATE_PATHS.newShortcut}
            icon={<ShortcutIcon {...icon} />}
            title={t('choose.shortcut')}
            hint={t('choose.shortcutHint')}
          />
        </ul>
      </section>
      <AiForm plansPath={plansPath} />
      <Starters />
    </TemplatesSection>
  );
}
