import type { User } from '@shared/contracts/auth';
import type { QueryClient } from '@tanstack/react-query';
import { forgetEarlyResponses, setUnauthorizedHandler, TOKEN_KEY } from '@/lib/api-client';
import { meQueryKey } from './api/me';

/** Where a session that ended is remembered until the next sign-in (this tab only). */
const ENDED_KEY = 'sessionEnded';

type EndedSession = { userId: string; returnTo: string };

/**
 * Forgets the signed-in user: the current-user query becomes null in place (its mounted observer must see
 * it, so the router shows the login screen) and every other cached query is dropped, so nothing of this
 * user stays in memory (nor any answer index.html asked for that nobody has taken).
 */
export function clearSignedInData(queryClient: QueryClient) {
  forgetEarlyResponses();
  queryClient.setQueryData(meQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
}

/**
 * A 401 while someone is signed in means their session ended (expired, revoked, password changed
 * elsewhere, account deactivated): back to the login screen, which says so, remembering where they were.
 */
export function installSessionExpiry(queryClient: QueryClient) {
  setUnauthorizedHandler(() => {
    const user = queryClient.getQueryData<User | null>(meQueryKey);
    if (!user) return;
    const ended: EndedSession = { userId: user.id, returnTo: window.location.pathname + window.location.search };
    sessionStorage.setItem(ENDED_KEY, JSON.stringify(ended));
    localStorage.removeItem(TOKEN_KEY);
    clearSignedInData(queryClient);
  });
}

/** The session that ended in this tab, if the user has not signed in again since. */
export function endedSession(): EndedSession | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(ENDED_KEY) ?? 'null');
    return value && typeof value.returnTo === 'string' && value.returnTo.startsWith('/') ? value : null;
  } catch {
    return null;
  }
}

/**
 * After a sign-in: where to go. The same user returns to where their session ended; someone else starts
 * on the dashboard. Null when no session had ended (stay where the login screen was shown).
 */
export function takeReturnPath(user: Pick<User, 'id'>): string | null {
  const ended = endedSession();
  forgetEndedSession();
  if (!ended) return null;
  return ended.userId === user.id ? ended.returnTo : '/';
}

export function forgetEndedSession() {
  sessionStorage.removeItem(ENDED_KEY);
}
