import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CurrentPlan, PaidPlanId, PaymentPlans, PlanDuration, Promo, QueryOf } from '@parley/contract';
import { apiClient } from '../../../lib/api';
import { currentUserKey } from '../../../lib/current-user';

export const plansKeys = {
  all: ['plans'] as const,
  offers: ['plans', 'offers'] as const,
  current: ['plans', 'current'] as const,
  promo: (code: string, plan: PaidPlanId | undefined, duration: PlanDuration) =>
    ['plans', 'promo', code, plan ?? '', duration] as const,
};

/** The plans on sale, their prices and allowances, and whether this server takes payments. */
export const usePaymentPlans = () =>
  useQuery<PaymentPlans>({ queryKey: plansKeys.offers, queryFn: () => apiClient.call('paymentPlans') });

/** The signed-in person's plan, subscription and what can be done with it. */
export const useCurrentPlan = (options: { refetchInterval?: number | false } = {}) =>
  useQuery<CurrentPlan>({
    queryKey: plansKeys.current,
    queryFn: () => apiClient.call('currentPlan'),
    refetchInterval: options.refetchInterval,
  });

/**
 * A new plan changes the credits everywhere: the profile and the dashboard's usage (whose key is ['usage']) are read
 * again.
 */
export function planChanged(queryClient: QueryClient, plan: CurrentPlan) {
  queryClient.setQueryData(plansKeys.current, plan);
  void queryClient.invalidateQueries({ queryKey: currentUserKey });
  void queryClient.invalidateQueries({ queryKey: ['usage'] });
}

type PlanChange = 'cancelSubscription' | 'reactivateSubscription' | 'removeSubscription';

/** Cancel (at period end), reactivate or remove (now): each answers the plan as it is afterwards. */
export function useSubscriptionAction(name: PlanChange) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.call(name),
    onSuccess: (plan) => planChanged(queryClient, plan),
  });
}

export type PlanChoice = { plan: PaidPlanId; planDuration: PlanDuration; quantity: number };

/** Changes plan, duration or seats of a running subscription (the payment provider prorates). */
export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: PlanChoice) => apiClient.call('updateSubscription', { query: choice }),
    onSuccess: (plan) => planChanged(queryClient, plan),
  });
}

/** Calls that answer where to send the browser next: a hosted checkout or the payment provider's portal. */
export const paymentPages = {
  checkout: (query: QueryOf<'subscribe'>) => apiClient.call('subscribe', { query }),
  trial: (query: QueryOf<'freeTrial'>) => apiClient.call('freeTrial', { query }),
  renewal: () => apiClient.call('renewSubscription'),
  portal: () => apiClient.call('billingPortal'),
};

/** The one way out of the app to a payment page (a full navigation: the provider's page is another site). */
export const browser = { assign: (url: string) => window.location.assign(url) };

/** Leaves the app for a payment page. */
export function leaveFor({ url }: { url: string }) {
  browser.assign(url);
}

/** What a promotion code gives, as the payment provider validates it (only when asked: `enabled`). */
export const usePromoCode = (code: string, plan: PaidPlanId | undefined, duration: PlanDuration) =>
  useQuery<Promo>({
    queryKey: plansKeys.promo(code, plan, duration),
    queryFn: () => apiClient.call('promoCode', { query: { code, ...(plan ? { plan } : {}), planDuration: duration } }),
    enabled: code !== '',
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Mails a link that verifies an academic address. */
export const useStudentVerification = () =>
  useMutation({ mutationFn: (email: string) => apiClient.call('studentVerification', { body: { email } }) });

/** Confirms the academic address from the mailed link's token. */
export function useStudentConfirm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiClient.call('studentConfirm', { body: { token } }),
    onSuccess: (plan) => queryClient.setQueryData(plansKeys.current, plan),
  });
}

/** After checkout: the server applies the payment if the provider shows it paid. */
export function useConfirmCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => apiClient.call('confirmCheckout', { body: { sessionId } }),
    onSuccess: (plan) => planChanged(queryClient, plan),
  });
}
