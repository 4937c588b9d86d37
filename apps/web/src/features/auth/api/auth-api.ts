import { useMutation } from '@tanstack/react-query';
import type { BodyOf } from '@parley/contract';
import { formChecks } from '@parley/contract/values';
import { apiClient } from '../../../lib/api';
import { currentLanguage } from '../../../lib/i18n';

/** Language and time zone of this browser, sent with sign-ups so mails and dates fit the person. */
export function signupLocale() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { language: currentLanguage(), ...(formChecks.timezone(zone) === zone ? { timezone: zone } : {}) };
}

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
