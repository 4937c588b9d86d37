import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, buttonClasses, Spinner } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useVerifyEmail } from '../api/auth-api';
import { AuthHeading } from './auth-heading';

export function VerifyEmail({ token }: { token: string | null }) {
  const { t } = useTranslation('auth');
  const verify = useVerifyEmail();
  const started = useRef(false);

  useEffect(() => {
    // Once only: the token is single-use, and StrictMode mounts effects twice in development.
    if (!token || started.current) return;
    started.current = true;
    verify.mutate(token);
  }, [token, verify]);

  return (
    <div>
      <AuthHeading title={t(verify.isSuccess ? 'verify.verifiedTitle' : 'verify.title')} />
      <div className="space-y-4">
        {!token && <Alert tone="error">{t('verify.missingToken')}</Alert>}
        {token && (verify.isPending || verify.isIdle) && (
          <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400" role="status">
            <Spinner className="h-4 w-4" /> {t('verify.checking')}
          </p>
        )}
        {verify.isSuccess && <Alert tone="success">{verify.data.message || t('verify.success')}</Alert>}
        {verify.isError && <Alert tone="error">{errorMessage(verify.error)}</Alert>}
        <Link to="/login" className={buttonClasses('primary', 'w-full')}>
          {t('verify.toLogin')}
        </Link>
      </div>
    </div>
  );
}
