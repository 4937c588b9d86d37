import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import {
  SIGNATURE_HTML_MAX,
  SIGNATURE_NAME_MAX,
  SIGNATURE_SITES,
  signatureInputSchema,
  signatureScopeSchema,
  type Signature,
} from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, ArrowLeftIcon, Button, Card, CloseIcon, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useDeleteSignature, useSaveSignature, useSignatures } from '../api/templates-api';
import { cleanSignatureHtml, isBlankHtml } from '../lib/signature-html';
import { TEMPLATE_PATHS } from '../paths';
import { RichTextEditor, type RichTextHandle } from './rich-text-editor';
import { invalidClasses, TemplatesSection, textareaClasses as inputClasses } from './section';
import { SignaturePreview } from './signature-preview';

const checkboxClasses =
  'h-4 w-4 rounded border-zinc-300 text-blue-600 focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-600';

type Problems = Partial<Record<'name' | 'html' | 'address', string>>;

function DefaultsField({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const { t } = useTranslation('templates');
  const id = useId();
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const addresses = value.filter((scope) => !(SIGNATURE_SITES as readonly string[]).includes(scope));

  const toggle = (site: string, on: boolean) =>
    onChange(on ? [...value.filter((s) => s !== site), site] : value.filter((s) => s !== site));

  const add = () => {
    const parsed = signatureScopeSchema.safeParse(address);
    if (!parsed.success || (SIGNATURE_SITES as readonly string[]).includes(parsed.data)) {
      setProblem(t('signatureEditor.addressInvalid'));
      return;
    }
    if (value.includes(parsed.data)) {
      setProblem(t('signatureEditor.addressTwice'));
      return;
    }
    onChange([...value, parsed.data]);
    setAddress('');
    setProblem(null);
  };

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t('signatureEditor.defaults')}</legend>
      <p className="-mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('signatureEditor.defaultsHint')}</p>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {SIGNATURE_SITES.map((site) => (
          <label key={site} className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
            <input
              type="checkbox"
              className={checkboxClasses}
              checked={value.includes(site)}
              onChange={(e) => toggle(site, e.target.checked)}
            />
            {t(`signatures.sites.${site}`)}
          </label>
        ))}
      </div>
      {addresses.length > 0 && (
        <ul aria-label={t('signatureEditor.addresses')} className="flex flex-wrap gap-2">
          {addresses.map((a) => (
            <li
              key={a}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-zinc-100 py-0.5 pl-3 pr-1 text-sm text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200"
            >
              <span className="min-w-0 truncate">{a}</span>
              <button
                type="button"
                aria-label={t('signatureEditor.removeAddress', { address: a })}
                onClick={() => onChange(value.filter((s) => s !== a))}
                className={cn(
                  'rounded-full p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700',
                  focusRing,
                )}
              >
                <CloseIcon width="0.9em" height="0.9em" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="space-y-1.5">
        <label htmlFor={`${id}-address`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {t('signatureEditor.addressLabel')}
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id={`${id}-address`}
            type="email"
            autoComplete="email"
            value={address}
            placeholder={t('signatureEditor.addressPlaceholder')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-address-error` : `${id}-address-hint`}
            onChange={(e) => {
              setAddress(e.target.value);
              setProblem(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            className={cn(inputClasses, 'min-w-0 flex-1 basis-56', problem && invalidClasses)}
          />
          <Button variant="secondary" onClick={add}>
            {t('signatureEditor.addAddress')}
          </Button>
        </div>
        {problem ? (
          <p id={`${id}-address-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
            {problem}
          </p>
        ) : (
          <p id={`${id}-address-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
            {t('signatureEditor.addressHint')}
          </p>
        )}
      </div>
    </fieldset>
  );
}

function SignatureForm({ signature }: { signature: Signature | null }) {
  const { t, i18n } = useTranslation('templates');
  const navigate = useNavigate();
  const save = useSaveSignature();
  const remove = useDeleteSignature();
  const editorRef = useRef<RichTextHandle>(null);
  const [name, setName] = useState(signature?.name ?? '');
  const [html, setHtml] = useState(signature?.html ?? '');
  const [defaultFor, setDefaultFor] = useState<string[]>(signature?.defaultFor ?? []);
  // What the server stored and cleaned; the editor is loaded again from it after each save.
  const [stored, setStored] = useState({ html: signature?.html ?? '', version: 0 });
  const [problems, setProblems] = useState<Problems>({});
  const [asking, setAsking] = useState(false);
  const n = (value: number) => formatNumber(value, i18n.language);
  // Compared as the editor holds them (the server writes the same HTML its own way).
  const unsaved = useMemo(
    () => signature === null || cleanSignatureHtml(html) !== cleanSignatureHtml(stored.html),
    [signature, html, stored.html],
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next: Problems = {};
    if (!name.trim()) next.name = t('signatureEditor.nameRequired');
    if (isBlankHtml(html)) next.html = t('signatureEditor.contentRequired');
    else if (html.length > SIGNATURE_HTML_MAX) next.html = t('signatureEditor.tooLong', { max: n(SIGNATURE_HTML_MAX) });
    const parsed = signatureInputSchema.safeParse({ name, html, defaultFor });
    if (!parsed.success && !next.name && !next.html) next.name = t('signatureEditor.nameRequired');
    setProblems(next);
    if (next.name) return document.getElementById('signature-name')?.focus();
    if (next.html || !parsed.success) return editorRef.current?.focus();
    save.mutate(
      { ...(signature ? { id: signature.id } : {}), input: parsed.data },
      {
        onSuccess: (answer) => {
          toast.success(answer.message || t('signatureEditor.saved'));
          setHtml(answer.data.html);
          setDefaultFor(answer.data.defaultFor);
          setStored((s) => ({ html: answer.data.html, version: s.version + 1 }));
          if (!signature) void navigate(TEMPLATE_PATHS.signature(answer.data.id), { replace: true });
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const onDelete = () => {
    if (!signature) return;
    remove.mutate(signature.id, {
      onSuccess: (answer) => {
        toast.success(answer.message || t('signatures.deleted'));
        void navigate(TEMPLATE_PATHS.signatures, { replace: true });
      },
      onError: (error) => {
        setAsking(false);
        toast.error(errorMessage(error));
      },
    });
  };

  return (
    <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,0.9fr)]">
      <Card>
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          <TextField
            id="signature-name"
            label={t('signatureEditor.name')}
            placeholder={t('signatureEditor.namePlaceholder')}
            value={name}
            maxLength={SIGNATURE_NAME_MAX}
            error={problems.name}
            onChange={(e) => {
              setName(e.target.value);
              setProblems((p) => ({ ...p, name: undefined }));
            }}
          />
          <RichTextEditor
            ref={editorRef}
            label={t('signatureEditor.content')}
            html={stored.html}
            resetKey={stored.version}
            error={problems.html}
            onChange={(next) => {
              setHtml(next);
              setProblems((p) => ({ ...p, html: undefined }));
            }}
          />
          <DefaultsField value={defaultFor} onChange={setDefaultFor} />
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" loading={save.isPending}>
              {t('editor.save')}
            </Button>
            <Link
              to={TEMPLATE_PATHS.signatures}
              className={cn(
                'rounded-md px-3 py-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
                focusRing,
              )}
            >
              {t('editor.cancel')}
            </Link>
            {signature && (
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
      <Card className="space-y-3 lg:sticky lg:top-20">
        <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-50">{t('signatureEditor.preview')}</h2>
        <SignaturePreview html={html} />
        <p className="text-xs text-zinc-500 dark:text-zinc-400" aria-live="polite">
          {unsaved ? t('signatureEditor.previewDraft') : t('signatureEditor.previewSaved')}
        </p>
      </Card>
      <ConfirmDialog
        open={asking}
        title={t('signatures.confirmDelete', { name: signature?.name ?? '' })}
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
 * /template/signature/new and /template/signature/{id}: a signature's name, its formatted text, where it is the
 * default (Gmail, Outlook, a mail address), and a preview as the mail will show it.
 */
export function SignatureEditor({ id }: { id?: string }) {
  const { t } = useTranslation('templates');
  const signatures = useSignatures();
  const signature = id ? signatures.data?.find((s) => s.id === id) : null;

  let content;
  if (id && signatures.isError) {
    content = (
      <Alert tone="error" className="space-y-2">
        <p>{errorMessage(signatures.error)}</p>
        <Button variant="secondary" onClick={() => void signatures.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (id && !signatures.data) {
    content = (
      <Card className="space-y-3" aria-busy="true">
        <SkeletonBar className="h-9 w-1/2" />
        <SkeletonBar className="h-32 w-full" />
      </Card>
    );
  } else if (id && !signature) {
    content = (
      <Alert tone="error" className="space-y-2">
        <p>{t('signatureEditor.notFound')}</p>
        <Link to={TEMPLATE_PATHS.signatures} className={cn('font-medium underline', focusRing)}>
          {t('signatureEditor.back')}
        </Link>
      </Alert>
    );
  } else {
    // Keyed by id: a new signature, once saved, keeps its form (the address changes from /new to its id).
    content = <SignatureForm key={signature?.id ?? 'new'} signature={signature ?? null} />;
  }

  return (
    <TemplatesSection title={id ? t('signatureEditor.editTitle') : t('signatureEditor.newTitle')} nav={false}>
      <Link
        to={TEMPLATE_PATHS.signatures}
        className={cn(
          '-mt-2 inline-flex items-center gap-1.5 rounded text-sm font-medium text-blue-700 hover:underline dark:text-blue-300',
          focusRing,
        )}
      >
        <ArrowLeftIcon width="1em" height="1em" />
        {t('signatureEditor.back')}
      </Link>
      {content}
    </TemplatesSection>
  );
}
