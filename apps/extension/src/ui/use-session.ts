import { useEffect, useState } from 'react';
import { readSession, watchSession, type SessionState } from '../platform/storage/session-store';

/** The session as the background last wrote it (null while loading), live. */
export function useSession(): SessionState | null {
  const [session, setSession] = useState<SessionState | null>(null);
  useEffect(() => {
    let alive = true;
    void readSession().then((s) => alive && setSession(s));
    const stop = watchSession((next) => setSession(next));
    return () => {
      alive = false;
      stop();
    };
  }, []);
  return session;
}
