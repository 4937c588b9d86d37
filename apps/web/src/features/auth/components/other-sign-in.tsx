import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginResult } from '@parley/contract';
import { Alert } from '@parley/ui';
import { usePublicConfig } from '../api/sign-in-calls';
import { GoogleSignInButton } from './google-sign-in-button';

/** "or" and the Google button, only when the server has a Google client id; what went wrong, under it. */
export function OtherSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const config = usePublicConfig();
  const [error, setError] = useState<{ message: string; unavailable: boolean } | null>(null);
  const clientId = config?.googleClientId;
  if (!clientId) return null;
  // Without Google's script there is no button to show: only why, and that e-mail sign-in works. Written here, in
  // the language of the page as it is now (the button, gone, would not write it again if the language changes).
  if (error?.unavailable) {
    return (
      <Alert tone="error" className="mt-6">
        {t('google.scriptFailed')}
      </Alert>
    );
  }
  return (
    <div className="mt-6">
      <div className="mb-4 flex items-center gap-3 text-xs uppercase tracking-wide text-zinc-400">
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        {t('or')}
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      </div>
      <GoogleSignInButton
        clientId={clientId}
        onSignedIn={(result) => {
          setError(null);
          onSignedIn(result);
        }}
        onError={(message, unavailable) => setError({ message, unavailable })}
      />
      {error && (
        <Alert tone="error" className="mt-4">
          {error.message}
        </Alert>
      )}
    </div>
  );
}
