import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { FullScreenLoading } from '../features/shell';
import { errorMessage } from '../lib/api';
import { useCurrentUser } from '../lib/current-user';
import { applyLanguage } from '../lib/i18n';
import { NEXT_PARAM, returnPath, withReturnPath } from '../lib/safe-path';
import { clearSession, COOKIE_COPY_DELAY_MS, copyUserIdToCookie, getToken, useToken } from '../lib/session';
import { toast } from '../lib/toast';

/**
 * Protected routes: no token → /login?next=<this page>, so signing in comes back here, or `signedOut` for a page that
 * has something to say to a signed-out visitor first (an invitation's link). The user loads behind a full-screen
 * overlay; a failed load logs out.
 */
export function RequireAuth({ signedOut }: { signedOut?: ReactNode }) {
  const token = useToken();
  const location = useLocation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const languageApplied = useRef<string | null>(null);

  // Spec §4: about 10 s after login the user id is copied into a cookie.
  useEffect(() => {
    if (!token) return;
    const timer = setTimeout(copyUserIdToCookie, COOKIE_COPY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [token]);

  // The language stored on the profile wins over the cookie (spec §3), once per signed-in user.
  useEffect(() => {
    if (user.data && languageApplied.current !== user.data.id) {
      languageApplied.current = user.data.id;
      void applyLanguage(user.data.language);
    }
  }, [user.data]);

  useEffect(() => {
    if (token && user.isError) {
      // 401 and 409 have already ended the session in the API client; anything else ends it here.
      toast.error(errorMessage(user.error), { toastId: 'user-fetch-failed' });
      clearSession();
      queryClient.removeQueries();
    }
  }, [token, user.isError, user.error, queryClient]);

  if (!token) {
    if (signedOut) return <>{signedOut}</>;
    return <Navigate to={withReturnPath('/login', location.pathname + location.search + location.hash)} replace />;
  }
  if (!user.data) return <FullScreenLoading />;
  return <Outlet />;
}

/** Sign-in and sign-up pages: a signed-in visitor goes to the page named by ?next=, or to /home. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  // Read once: after signing in here, useSignedIn navigates itself (onboarding or home); a live check would race it.
  const [signedInOnArrival] = useState(() => Boolean(getToken()));
  if (signedInOnArrival) return <Navigate to={returnPath(params.get(NEXT_PARAM)) ?? '/home'} replace />;
  return <>{children}</>;
}
