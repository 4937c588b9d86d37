import { useTranslation } from 'react-i18next';
import type { LoginResult } from '@parley/contract';
import { usePublicConfig } from '../api/auth-api';
import { GoogleSignInButton } from './google-sign-in-button';

/** "or" and the Google button, only when the server has a Google client id. */
export function OtherSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const config = usePublicConfig();
  const clientId = config.data?.googleClientId;
  if (!clientId) return null;
  return (
    <div className="mt-6">
      <div className="mb-4 flex items-center gap-3 text-xs uppercase tracking-wide text-zinc-400">
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        {t('or')}
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      </div>
      <GoogleSignInButton clientId={clientId} onSignedIn={onSignedIn} />
    </div>
  );
}
