import { useCallback, useEffect, useRef, useState } from 'react';
import { createApiClient } from '@parley/api-client';
import type { BodyOf, LoginResult, PublicConfig } from '@parley/contract';
import { currentLanguage } from '../../../lib/i18n';
import { clearSession, getToken } from '../../../lib/session';

/**
 * The calls of the login page: the one API client over fetch (packages/api-client), made here without the app's
 * query cache and toasts, which the login page does not load (docs/decisions/021). Nothing here is sent with a token
 * worth keeping: these calls start a session.
 */
const client = createApiClient({ token: { get: getToken, drop: clearSession }, language: currentLanguage });

export const logIn = (body: BodyOf<'login'>) => client.call('login', { body });
export const resendVerification = (email: string) => client.request('resendVerification', { body: { email } });

let config: Promise<PublicConfig> | null = null;
/** The server's public settings (Google's client id), asked once per page load. */
export function publicConfig(): Promise<PublicConfig> {
  config ??= client.call('publicConfig').catch((error: unknown) => {
    config = null;
    throw error;
  });
  return config;
}

export class MissingCredentialError extends Error {
  constructor() {
    super('Google returned no credential');
    this.name = 'MissingCredentialError';
  }
}

/**
 * What the Google button does with the credential it receives. Exported so a test can call it with a token of its
 * own and skip the Google script entirely.
 */
export async function signInWithGoogleCredential(credential: string | undefined | null): Promise<LoginResult> {
  if (!credential) throw new MissingCredentialError();
  return client.call('socialSignin', { query: { idToken: credential } });
}

/** The public settings once they arrive (null until then, and when they cannot be read). */
export function usePublicConfig(): PublicConfig | null {
  const [value, setValue] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    publicConfig()
      .then((c) => live && setValue(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return value;
}

type CallState<T> = { pending: boolean; error: unknown; data: T | undefined };

/** One call at a time, with its state: a small stand-in for a mutation hook on the pages that load no query cache. */
export function useCall<A, T>(call: (input: A) => Promise<T>) {
  const [state, setState] = useState<CallState<T>>({ pending: false, error: null, data: undefined });
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = useCallback(
    async (input: A, onSuccess?: (data: T) => void) => {
      setState({ pending: true, error: null, data: undefined });
      try {
        const data = await call(input);
        if (mounted.current) setState({ pending: false, error: null, data });
        onSuccess?.(data);
      } catch (error) {
        if (mounted.current) setState({ pending: false, error, data: undefined });
      }
    },
    [call],
  );
  return { ...state, run };
}
