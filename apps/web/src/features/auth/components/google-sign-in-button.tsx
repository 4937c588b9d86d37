import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginResult } from '@parley/contract';
import { errorMessage } from '../../../lib/error-message';
import { MissingCredentialError, signInWithGoogleCredential } from '../api/sign-in-calls';

export const GSI_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

/** Spec §9: heights of the provider's button sizes. */
export const GOOGLE_BUTTON_HEIGHTS = { large: 40, medium: 32, small: 20 } as const;
type Size = keyof typeof GOOGLE_BUTTON_HEIGHTS;

type CredentialResponse = { credential?: string; select_by?: string; clientId?: string };
type GoogleIdentity = {
  accounts: {
    id: {
      initialize: (config: {
        client_id: string;
        callback: (response: CredentialResponse) => void;
        ux_mode?: 'popup';
      }) => void;
      renderButton: (
        parent: HTMLElement,
        options: {
          type: 'standard' | 'icon';
          theme: 'outline' | 'filled_blue' | 'filled_black';
          size: Size;
          text?: string;
          locale?: string;
          width?: number;
        },
      ) => void;
    };
  };
};
// `window.google` is the only global, and it is Google's own script that defines it.
declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptPromise: Promise<GoogleIdentity> | null = null;

function loadGoogleScript(): Promise<GoogleIdentity> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google);
  scriptPromise ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () => (window.google?.accounts?.id ? resolve(window.google) : reject(new Error('GSI missing')));
    script.onerror = () => reject(new Error('GSI failed to load'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    scriptPromise = null;
    throw error;
  });
  return scriptPromise;
}

type Props = {
  clientId: string;
  onSignedIn: (result: LoginResult) => void;
  /**
   * What to tell the person: Google's script did not load (`unavailable`: the button cannot appear), or it gave no
   * credential, or the server refused the sign-in.
   */
  onError: (message: string, unavailable: boolean) => void;
  size?: Size;
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue' | 'filled_black';
};

/**
 * "Sign in with Google": loads Google Identity Services when it mounts, renders Google's button and sends the
 * credential to `socialSignin`. Browser tests can serve a stub at GSI_SCRIPT_URL or call signInWithGoogleCredential.
 */
export function GoogleSignInButton({
  clientId,
  onSignedIn,
  onError,
  size = 'large',
  type = 'standard',
  theme = 'outline',
}: Props) {
  const { t, i18n } = useTranslation('auth');
  const container = useRef<HTMLDivElement>(null);
  // The latest callback, without re-initialising Google's client on every render.
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  const failed = useRef(onError);
  failed.current = onError;

  useEffect(() => {
    let cancelled = false;
    loadGoogleScript()
      .then((google) => {
        if (cancelled || !container.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: (response) => {
            signInWithGoogleCredential(response.credential)
              .then((result) => signedIn.current(result))
              .catch((error: unknown) =>
                failed.current(
                  error instanceof MissingCredentialError ? t('google.noCredential') : errorMessage(error),
                  false,
                ),
              );
          },
        });
        container.current.replaceChildren();
        google.accounts.id.renderButton(container.current, {
          type,
          theme,
          size,
          text: 'continue_with',
          locale: i18n.language,
          width: 320,
        });
      })
      .catch(() => {
        if (!cancelled) failed.current(t('google.scriptFailed'), true);
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, size, type, theme, i18n.language, t]);

  return (
    <div
      ref={container}
      data-testid="google-sign-in"
      role="group"
      aria-label={t('google.label')}
      className="flex justify-center"
      style={{ minHeight: GOOGLE_BUTTON_HEIGHTS[size] }}
    />
  );
}
