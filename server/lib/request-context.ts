import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every statement of a request may need to know about its caller without being passed it: the API key a
 * request was made with, so that each audit event written while handling it names the key (lib/audit.ts).
 * Entered in a preHandler hook (plugins/auth.ts): the handler and everything it awaits run inside it.
 */
type RequestContext = { apiKeyId: string | null };

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequestContext(context: RequestContext, next: () => void): void {
  storage.run(context, next);
}

/** The API key of the request being handled, or null (a person, a job, a test). */
export const currentApiKeyId = (): string | null => storage.getStore()?.apiKeyId ?? null;
