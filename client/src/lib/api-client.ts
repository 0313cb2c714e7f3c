import type { ApiErrorBody } from '@shared/contracts/common';
import type {} from '../first-load';

export const TOKEN_KEY = 'authToken';

/** A non-OK response: message "<status>: <body text>" (status text when the body is empty), as ui-spec section 8 says. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<ApiErrorBody> | null;

  constructor(status: number, text: string, body: Partial<ApiErrorBody> | null) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's human message when it sent one. */
  get serverMessage(): string | undefined {
    return this.body?.message;
  }
}

/** The message to show in a toast: the server's message if present, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}

/**
 * Called when the server answers 401 to a request other than signing in or out: the session has ended
 * (expired, revoked, or the user deactivated). features/auth/session.ts decides what happens then.
 */
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}
const SIGN_IN_OUT = new Set(['/api/auth/login', '/api/auth/logout']);

function authHeaders(): Record<string, string> {
  const token = localStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function throwIfNotOk(response: Response, url: string): Promise<void> {
  if (response.ok) return;
  if (response.status === 401 && !SIGN_IN_OUT.has(url.split('?')[0])) onUnauthorized?.();
  const text = (await response.text()) || response.statusText;
  let body: Partial<ApiErrorBody> | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  throw new ApiError(response.status, text, body);
}

/** The answer index.html's inline script (first-load.ts) started for `GET url`, if any, taken once (its rules). */
export const takeEarlyResponse = (url: string): Promise<Response> | undefined =>
  globalThis.window?.__adcrmEarly?.take(url, localStorage.getItem(TOKEN_KEY));

/** Drops every answer index.html asked for that nobody has taken (on sign-in, sign-out, a session's end). */
export const forgetEarlyResponses = () => globalThis.window?.__adcrmEarly?.clear();

/** Every call sends the stored token as a bearer header and sends cookies; bodies are JSON. */
export async function apiFetch(method: string, url: string, body?: unknown): Promise<Response> {
  const early = method === 'GET' && body === undefined ? takeEarlyResponse(url) : undefined;
  const response = await (early ??
    fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...authHeaders() },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
    }));
  await throwIfNotOk(response, url);
  return response;
}

export async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await apiFetch(method, url, body);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * Sends a body of raw text (a CSV file, say) with its content type instead of JSON; the token, the cookies
 * and the errors are handled as for every other call. The answer is JSON.
 */
export async function apiText<T>(method: string, url: string, text: string, contentType: string): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { 'Content-Type': contentType, ...authHeaders() },
    body: text,
    credentials: 'include',
  });
  await throwIfNotOk(response, url);
  const answer = await response.text();
  return (answer ? JSON.parse(answer) : null) as T;
}

/** Sends a multipart form (a file to check, say); the browser sets its content type and boundary. The answer is JSON. */
export async function apiForm<T>(method: string, url: string, form: FormData): Promise<T> {
  const response = await fetch(url, { method, headers: authHeaders(), body: form, credentials: 'include' });
  await throwIfNotOk(response, url);
  const answer = await response.text();
  return (answer ? JSON.parse(answer) : null) as T;
}

/**
 * A page of a list: the rows and the total from X-Total-Count. Long lists count only so far: then the total
 * is a lower bound (X-Total-Count-Lower-Bound), shown as "1,000+".
 */
export async function apiPage<T>(url: string): Promise<{ rows: T[]; total: number; totalIsLowerBound: boolean }> {
  const response = await apiFetch('GET', url);
  const rows = (await response.json()) as T[];
  return {
    rows,
    total: Number(response.headers.get('X-Total-Count') ?? rows.length),
    totalIsLowerBound: response.headers.get('X-Total-Count-Lower-Bound') === 'true',
  };
}

/** Builds a query string, leaving out empty values. */
export function withQuery(path: string, params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '' && value !== 'all') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
