import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, TextField, cn } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useStudentVerification } from '../api/plans-api';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Student pricing: a verified academic address turns on the student prices (a switch); without one, a form mails a
 * link that verifies it.
 */
export function StudentPricing({
  studentEmail,
  on,
  onChange,
  disabled = false,
}: {
  studentEmail: string | null;
  on: boolean;
  onChange: (on: boolean) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('plans');
  const switchId = useId();
  return (
    <Card className="space-y-3">
      <div>
        <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-50">{t('student.title')}</h2>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('student.hint')}</p>
      </div>
      {studentEmail ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('student.verified', { email: studentEmail })}</p>
          <label htmlFor={switchId} className="flex cursor-pointer items-center gap-3">
            <span className="text-sm font-medium text-zinc-800 dark:text-zinc-100">{t('student.toggle')}</span>
            <button
              id={switchId}
              type="button"
              role="switch"
              aria-checked={on}
              disabled={disabled}
              onClick={() => onChange(!on)}
              className={cn(
                'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 focus-visible:ring-offset-white disabled:opacity-50 dark:focus-visible:ring-offset-zinc-900',
                on ? 'bg-blue-500' : 'bg-zinc-300 dark:bg-zinc-700',
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
                  on ? 'translate-x-5' : 'translate-x-0.5',
                )}
              />
            </button>
          </label>
        </div>
      ) : (
        <StudentForm disabled={disabled} />
      )}
    </Card>
  );
}

function StudentForm({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation('plans');
  const verify = useStudentVerification();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    verify.mutate(address, { onSuccess: () => setSentTo(address) });
  };

  if (sentTo) {
    return (
      <Alert tone="success" className="space-y-1">
        <p>{t('student.sent', { email: sentTo })}</p>
        <button
          type="button"
          className="text-sm font-medium underline"
          onClick={() => {
            setSentTo(null);
            verify.reset();
          }}
        >
          {t('student.other')}
        </button>
      </Alert>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextField
            label={t('student.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setInvalid(false);
            }}
            disabled={disabled}
            error={invalid ? t('student.invalidEmail') : undefined}
            hint={t('student.emailHint')}
          />
        </div>
        <Button type="submit" variant="secondary" className="sm:mt-7" loading={verify.isPending} disabled={disabled}>
          {t('student.verify')}
        </Button>
      </div>
      {verify.isError && <Alert tone="error">{errorMessage(verify.error)}</Alert>}
    </form>
  );
}
