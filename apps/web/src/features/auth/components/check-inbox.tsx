import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Alert, Button } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useResendVerification } from '../api/auth-api';
import { AuthHeading } from './auth-heading';
import { useWithNext } from './return-links';

/** After a sign-up: the verification mail is on its way; it can be sent again. */
export function CheckInbox({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  const resend = useResendVerification();
  const withNext = useWithNext();
  const onResend = () =>
    resend.mutate(email, {
      onSuccess: (result) => toast.success(result.message || t('checkInbox.resent')),
      onError: (error) => toast.error(errorMessage(error)),
    });
  return (
    <div>
      <AuthHeading title={t('checkInbox.title')} subtitle={t('checkInbox.body', { email })} />
      {resend.isSuccess && (
        <Alert tone="success" className="mb-4">
          {t('checkInbox.resent')}
        </Alert>
      )}
      <div className="flex flex-col gap-3">
        <Button variant="secondary" onClick={onResend} loading={resend.isPending}>
          {t('checkInbox.resend')}
        </Button>
        <Link
          to={withNext('/login')}
          className="text-center text-sm font-medium text-blue-600 hover:underline dark:text-blue-400"
        >
          {t('backToLogin')}
        </Link>
      </div>
    </div>
  );
}
