import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ORG_INVITE_MAX, type InviteResult } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, cn } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useInvite } from '../api/organization-api';
import { parseEmails } from '../parse-emails';
import { Dialog } from './dialog';

function AddressList({ title, emails }: { title: string; emails: string[] }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{title}</h3>
      <ul className="mt-1 space-y-0.5 text-sm text-zinc-700 dark:text-zinc-300">
        {emails.map((email) => (
          <li key={email} className="break-all">
            {email}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Add New Members: several addresses at once (commas, spaces or new lines between them), checked here with the
 * contract's rules before anything is sent; then who was invited and who was already a member.
 */
export function InviteDialog({
  open,
  seatsLeft,
  onClose,
}: {
  open: boolean;
  /** Seats neither taken by a member nor held by a pending invitation. */
  seatsLeft: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('organization');
  const fieldId = useId();
  const invite = useInvite();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<InviteResult | null>(null);
  const n = (value: number) => formatNumber(value, i18n.language);
  const field = useRef<HTMLTextAreaElement>(null);
  const done = useRef<HTMLButtonElement>(null);

  // The form and the result replace each other: focus goes to what is now there.
  useEffect(() => {
    if (!open) return;
    if (result) done.current?.focus();
    else field.current?.focus();
  }, [open, result]);

  const close = () => {
    setText('');
    setProblem(null);
    setResult(null);
    invite.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    invite.reset();
    const parsed = parseEmails(text);
    if (parsed.invalid.length > 0) return setProblem(t('invite.invalid', { emails: parsed.invalid.join(', ') }));
    if (parsed.valid.length === 0) return setProblem(t('invite.empty'));
    if (parsed.tooMany) {
      return setProblem(t('invite.tooMany', { max: n(ORG_INVITE_MAX), typed: n(parsed.valid.length) }));
    }
    setProblem(null);
    invite.mutate(parsed.valid, {
      onSuccess: (answer) => {
        setResult(answer.data);
        setText('');
      },
    });
  };

  return (
    <Dialog
      open={open}
      title={t('invite.title')}
      description={result ? undefined : t('invite.description')}
      closeLabel={t('close')}
      onClose={close}
    >
      {result ? (
        <div className="space-y-4">
          <div role="status" className="space-y-4">
            {result.invited.length > 0 && <AddressList title={t('invite.invited')} emails={result.invited} />}
            {result.alreadyMembers.length > 0 && (
              <AddressList title={t('invite.alreadyMembers')} emails={result.alreadyMembers} />
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setResult(null)}>
              {t('invite.more')}
            </Button>
            <Button ref={done} onClick={close}>
              {t('invite.done')}
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-1.5">
            <label htmlFor={fieldId} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t('invite.label')}
            </label>
            <textarea
              ref={field}
              id={fieldId}
              rows={4}
              value={text}
              onChange={(event) => setText(event.target.value)}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              placeholder="ada@example.com, grace@example.com"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${fieldId}-error` : `${fieldId}-hint`}
              className={cn(
                'block w-full rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:outline-none focus:ring-2 dark:bg-zinc-900 dark:text-zinc-100',
                problem
                  ? 'border-red-500 focus:ring-red-500/40 dark:border-red-400'
                  : 'border-zinc-300 focus:border-blue-500 focus:ring-blue-500/40 dark:border-zinc-700',
              )}
            />
            {problem ? (
              <p id={`${fieldId}-error`} role="alert" className="break-words text-xs text-red-600 dark:text-red-400">
                {problem}
              </p>
            ) : (
              <p id={`${fieldId}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
                {t('invite.hint', { max: n(ORG_INVITE_MAX) })}{' '}
                {seatsLeft > 0 ? t('invite.seatsLeft', { seats: n(seatsLeft) }) : t('invite.noSeatsLeft')}
              </p>
            )}
          </div>
          {invite.error && <Alert tone="error">{errorMessage(invite.error)}</Alert>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending}>
              {t('invite.submit')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
