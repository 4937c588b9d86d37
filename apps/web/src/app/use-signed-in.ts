import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { LoginResult } from '@parley/contract';
import { currentUserKey } from '../lib/current-user';
import { postLoginPath, startSession } from '../lib/session';

/** What every sign-in path does with a session: store it, then onboarding (first login) or home, replacing history. */
export function useSignedIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (result: LoginResult) => {
      startSession(result.token, result.user);
      queryClient.setQueryData(currentUserKey, result.user);
      navigate(postLoginPath(result.user), { replace: true });
    },
    [navigate, queryClient],
  );
}
