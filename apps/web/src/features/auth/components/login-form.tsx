import { useRef, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginResult } from '@parley/contract';
import { formChecks } from '@parley/contract/values';
import { Alert, Button, TextField } from '@parley/ui';
import { ApiError } from '@parley/api-client';
import { errorMessage } from '../../../lib/error-message';
import { withReturnPath } from '../../../lib/safe-path';
import { logIn, resendVerification, useCall } from '../api/sign-in-calls';
import { AuthHeading } from './auth-heading';
import { OtherSignIn } from './other-sign-in';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/** A link to another page: the router's own inside the app, a plain anchor on the stand-alone login page. */
export type LinkTo = ComponentType<{ to: string; className?: string; children: ReactNode }>;

type Field = 'email' | 'password';

/**
 * The login form. It knows nothing of the router, the query cache or toasts, so the login page can be served on its
 * own, light (docs/decisions/021): `Link` draws its links, `next` is where signing in returns to. The e-mail and
 * password are checked with the contract's plain rules (form-checks.ts), the same the server applies with zod.
 */
export function LoginForm({
  onSignedIn,
  Link,
  next,
}: {
  onSignedIn: (result: LoginResult) => void;
  Link: LinkTo;
  next: string | null;
}) {
  const { t } = useTranslation('auth');
  const login = useCall(logIn);
  const resend = useCall(resendVerification);
  const [invalid, setInvalid] = useState<Set<Field>>(new Set());
  const submitted = useRef(false);
  const form = useRef<HTMLFormElement>(null);

  const read = () => {
    const data = new FormData(form.current!);
    return { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') };
  };
  const check = (values: Record<Field, string>) => {
    const bad = new Set<Field>();
    if (formChecks.email(values.email) === undefined) bad.add('email');
    if (formChecks.loginPassword(values.password) === undefined) bad.add('password');
    setInvalid(bad);
    return bad;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const values = read();
    const bad = check(values);
    if (bad.size) {
      form.current?.querySelector<HTMLInputElement>(`[name="${[...bad][0]}"]`)?.focus();
      return;
    }
    void login.run({ email: formChecks.email(values.email)!, password: values.password }, onSignedIn);
  };
  // After a first try, a field's message goes away as soon as it is right.
  const onInput = () => {
    if (submitted.current) check(read());
  };

  const notVerified = login.error instanceof ApiError && login.error.code === 'EMAIL_NOT_VERIFIED';
  const withNext = (page: string) => withReturnPath(page, next);

  return (
    <div>
      <AuthHeading title={t('login.title')} subtitle={t('login.subtitle')} />
      <form ref={form} onSubmit={onSubmit} onInput={onInput} noValidate className="space-y-4">
        {Boolean(login.error) && (
          <Alert tone="error">
            <p>{errorMessage(login.error)}</p>
            {notVerified && !resend.data && (
              <button
                type="button"
                className="mt-1 font-medium underline disabled:opacity-60"
                disabled={resend.pending}
                onClick={() => void resend.run(read().email)}
              >
                {t('checkInbox.resend')}
              </button>
            )}
          </Alert>
        )}
        {resend.data && <Alert tone="success">{t('checkInbox.resent')}</Alert>}
        {Boolean(resend.error) && <Alert tone="error">{errorMessage(resend.error)}</Alert>}
        <TextField
          label={t('fields.email')}
          name="email"
          type="email"
          autoComplete="email"
          error={invalid.has('email') ? t('validation.email') : undefined}
        />
        <TextField
          label={t('fields.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          error={invalid.has('password') ? t('validation.passwordRequired') : undefined}
        />
        <div className="flex justify-end text-sm">
          <Link to={withNext('/forgot-password')} className={linkClass}>
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={login.pending}>
          {t('login.submit')}
        </Button>
      </form>
      <OtherSignIn onSignedIn={onSignedIn} />
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('login.noAccount')}{' '}
        <Link to={withNext('/signup')} className={linkClass}>
          {t('login.signupLink')}
        </Link>
      </p>
    </div>
  );
}
