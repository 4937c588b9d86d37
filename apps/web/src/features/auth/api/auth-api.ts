import { useMutation, useQuery } from '@tanstack/react-query';
import { timezoneSchema, type BodyOf, type LoginResult } from '@parley/contract';
import { apiClient } from '../../../lib/api';
import { currentLanguage } from '../../../lib/i18n';

/** Language and time zone of this browser, sent with sign-ups so mails and dates fit the person. */
export function signupLocale() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { language: currentLanguage(), ...(timezoneSchema.safeParse(zone).success ? { timezone: zone } : {}) };
}

export const usePublicConfig = () =>
  useQuery({ queryKey: ['auth', 'config'], queryFn: () => apiClient.call('publicConfig'), staleTime: Infinity });

export const useLogin = () => useMutation({ mutationFn: (body: BodyOf<'login'>) => apiClient.call('login', { body }) });

export const useRegister = () =>
  useMutation({
    mutationFn: (body: BodyOf<'register'>) => apiClient.call('register', { body: { ...signupLocale(), ...body } }),
  });

export const useResendVerification = () =>
  useMutation({ mutationFn: (email: string) => apiClient.request('resendVerification', { body: { email } }) });

export const useForgotPassword = () =>
  useMutation({ mutationFn: (body: BodyOf<'forgotPassword'>) => apiClient.request('forgotPassword', { body }) });

export const useResetPassword = () =>
  useMutation({ mutationFn: (body: BodyOf<'resetPassword'>) => apiClient.request('resetPassword', { body }) });

export const useVerifyEmail = () =>
  useMutation({ mutationFn: (token: string) => apiClient.request('verify', { query: { token } }) });

export const useEarlyBird = () =>
  useMutation({
    mutationFn: (body: BodyOf<'earlyBird'>) => apiClient.call('earlyBird', { body: { ...signupLocale(), ...body } }),
  });

export const useAppDeal = () =>
  useMutation({
    mutationFn: (body: BodyOf<'appDeal'>) => apiClient.call('appDeal', { body: { ...signupLocale(), ...body } }),
  });

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
  return apiClient.call('socialSignin', { query: { idToken: credential } });
}
