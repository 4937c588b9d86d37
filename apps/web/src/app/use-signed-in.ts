import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { LoginResult } from '@parley/contract';
import { currentUserKey } from '../lib/current-user';
import { landingAfterSignIn, NEXT_PARAM, returnPath } from '../lib/safe-path';
import { startSession } from '../lib/session';

/**
 * What every sign-in path does with a session: store it, then onboarding (first login), else the page the visitor
 * was sent away from (?next=, same site only), else home, replacing history.
 */
export function useSignedIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const next = returnPath(params.get(NEXT_PARAM));
  return useCallback(
    (result: LoginResult) => {
      startSession(result.token, result.user);
      queryClient.setQueryData(currentUserKey, result.user);
      navigate(landingAfterSignIn(result.user, next), { replace: true });
    },
    [navigate, queryClient, next],
  );
}
