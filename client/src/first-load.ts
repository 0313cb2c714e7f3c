/**
 * The first requests of a page load, started from index.html before the module scripts have arrived
 * (docs/decisions/046-dashboard-first-paint.md). vite.config.ts compiles this file and writes it into
 * index.html as an inline script; the server allows it in its CSP by its hash (server/plugins/security.ts).
 * It imports nothing at run time: it runs before any chunk is there.
 *
 * - Who is signed in: `/api/auth/me`, on every page, with the stored token (if any) and the session cookie,
 *   exactly as `lib/api-client.ts` asks it; the entry adopts this answer instead of asking again.
 * - On the dashboard (`/`) with a stored token: the signed-in shell's and the dashboard's scripts, as
 *   modulepreload links, so they arrive with the entry instead of one round trip after it.
 * - On the dashboard, once `/api/auth/me` has answered with a user: the requests that user's dashboard makes
 *   first (`dashboardRequests`, by role), adopted once by `lib/api-client.ts` when the dashboard asks.
 *
 * The login page (no token, no session) asks `/api/auth/me` a little earlier and nothing else.
 */

/** How long an answer started here stays adoptable (a first render asks within a few seconds). */
export const EARLY_RESPONSE_MAX_AGE_MS = 15_000;

/** The answers started here, by URL; lib/api-client.ts takes them (`apiFetch`). */
export type EarlyResponses = {
  /**
   * The answer to `GET url`, if one was started here: taken once, and only while the same token is stored
   * (`token`, the one stored now) and within EARLY_RESPONSE_MAX_AGE_MS, so nothing asked for one user is
   * handed to another or served stale; otherwise every answer left is dropped.
   */
  take(url: string, token: string | null): Promise<Response> | undefined;
  /** Drops every answer nobody has taken (on sign-in, sign-out, a session's end). */
  clear(): void;
  /** The URLs of the answers nobody has taken yet. */
  left(): string[];
};

declare global {
  interface Window {
    __adcrmEarly?: EarlyResponses;
  }
}

/** The user fields the dashboard's requests depend on. */
export type FirstLoadUser = { id: string; role: string };

/**
 * The URLs a user's dashboard asks for when it first renders, as its queries build them
 * (features/dashboard/api/*.ts, by the components routes/dashboard.tsx shows for the role). A URL here that a
 * dashboard does not ask for costs one request; one the dashboard asks for that is missing here is asked then
 * (e2e/dashboard-first-load.spec.ts counts them).
 */
export function dashboardRequests(user: FirstLoadUser): string[] {
  switch (user.role) {
    case 'super_admin':
    case 'admin':
      return ['/api/users?limit=1', '/api/dashboard/stats', '/api/audit?limit=5', '/api/health'];
    case 'finance':
      return ['/api/dashboard/stats', '/api/health', '/api/receivables/outlook'];
    case 'sales':
    case 'sales_manager':
      return [
        '/api/dashboard/stats?mine=true',
        '/api/contracts?mine=true&limit=5',
        `/api/commissions/summary?repId=${encodeURIComponent(user.id)}`,
        '/api/renewals?withinDays=60&limit=10',
      ];
    case 'client':
      return ['/api/client/summary', '/api/client/contracts?limit=100', '/api/client/invoices?limit=5'];
    default:
      return [];
  }
}

/**
 * Starts the first requests (see above). `chunks`: the scripts of the signed-in shell and the dashboard that
 * index.html does not already load, written in by vite.config.ts.
 */
export function startFirstLoad(chunks: readonly string[]): void {
  let token: string | null = null;
  try {
    token = localStorage.getItem('authToken');
  } catch {
    // Storage disabled: the session cookie alone may still sign the browser in.
  }
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const startedAt = Date.now();
  const responses = new Map<string, Promise<Response>>();
  window.__adcrmEarly = {
    take(url, current) {
      const response = responses.get(url);
      responses.delete(url);
      if (current === token && Date.now() - startedAt <= EARLY_RESPONSE_MAX_AGE_MS) return response;
      responses.clear();
      return undefined;
    },
    clear: () => responses.clear(),
    left: () => [...responses.keys()],
  };
  const get = (url: string) => {
    const response = fetch(url, { headers, credentials: 'include' });
    // A failure is the adopter's to handle (as its own fetch's would be); unadopted, it is dropped silently.
    response.catch(() => undefined);
    responses.set(url, response);
    return response;
  };
  const me = get('/api/auth/me');
  if (location.pathname !== '/') return;
  if (token) {
    for (const href of chunks) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    }
  }
  // The role decides the dashboard's requests: read from a copy of the answer, which the entry reads too.
  me.then((response) => (response.ok ? (response.clone().json() as Promise<FirstLoadUser | null>) : null))
    .then((user) => {
      if (user && typeof user.id === 'string' && typeof user.role === 'string') {
        for (const url of dashboardRequests(user)) get(url);
      }
    })
    .catch(() => undefined);
}
