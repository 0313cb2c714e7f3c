import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dashboardRequests, EARLY_RESPONSE_MAX_AGE_MS, startFirstLoad } from './first-load';
import { forgetEarlyResponses, takeEarlyResponse } from './lib/api-client';

/** What each role's dashboard asks for on its first render, written out (features/dashboard/api/*.ts). */
const EXPECTED: Record<string, string[]> = {
  super_admin: ['/api/users?limit=1', '/api/dashboard/stats', '/api/audit?limit=5', '/api/health'],
  admin: ['/api/users?limit=1', '/api/dashboard/stats', '/api/audit?limit=5', '/api/health'],
  finance: ['/api/dashboard/stats', '/api/health', '/api/receivables/outlook'],
  sales: [
    '/api/dashboard/stats?mine=true',
    '/api/contracts?mine=true&limit=5',
    '/api/commissions/summary?repId=rep-1',
    '/api/renewals?withinDays=60&limit=10',
  ],
  sales_manager: [
    '/api/dashboard/stats?mine=true',
    '/api/contracts?mine=true&limit=5',
    '/api/commissions/summary?repId=rep-1',
    '/api/renewals?withinDays=60&limit=10',
  ],
  client: ['/api/client/summary', '/api/client/contracts?limit=100', '/api/client/invoices?limit=5'],
  someone_else: [],
};

describe('dashboardRequests', () => {
  it.each(Object.entries(EXPECTED))('asks for what the %s dashboard asks for', (role, urls) => {
    expect(dashboardRequests({ id: 'rep-1', role })).toEqual(urls);
  });
});

type Call = { url: string; headers: Record<string, string>; credentials: string };

describe('startFirstLoad', () => {
  let calls: Call[];
  let links: { rel: string; href: string; crossOrigin: string | null }[];
  let storage: Map<string, string>;
  let meAnswer: () => Response;

  function stubPage(pathname: string, token: string | null) {
    storage = new Map(token ? [['authToken', token]] : []);
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    });
    vi.stubGlobal('location', { pathname });
    vi.stubGlobal('window', globalThis);
    vi.stubGlobal('document', {
      createElement: () => ({ rel: '', href: '', crossOrigin: null }),
      head: { appendChild: (link: (typeof links)[number]) => links.push(link) },
    });
  }

  beforeEach(() => {
    calls = [];
    links = [];
    meAnswer = () => new Response(JSON.stringify({ id: 'u-1', role: 'admin', firstName: 'Ada' }), { status: 200 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: { headers: Record<string, string>; credentials: string }) => {
        calls.push({ url, headers: init.headers, credentials: init.credentials });
        return url === '/api/auth/me' ? meAnswer() : new Response(`{"url":"${url}"}`, { status: 200 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('on the dashboard with a token: preloads the scripts, asks who it is, then that role’s dashboard data', async () => {
    stubPage('/', 'tok-1');
    startFirstLoad(['/assets/shell-1.js', '/assets/dashboard-1.js']);
    expect(links).toEqual([
      { rel: 'modulepreload', href: '/assets/shell-1.js', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/dashboard-1.js', crossOrigin: '' },
    ]);
    await settle();
    expect(calls.map((call) => call.url)).toEqual([
      '/api/auth/me',
      '/api/users?limit=1',
      '/api/dashboard/stats',
      '/api/audit?limit=5',
      '/api/health',
    ]);
    for (const call of calls) {
      expect(call.headers).toEqual({ Authorization: 'Bearer tok-1' });
      expect(call.credentials).toBe('include');
    }
    // The entry can still read the whole answer the inline script read a copy of.
    const me = await takeEarlyResponse('/api/auth/me');
    expect(await me?.json()).toEqual({ id: 'u-1', role: 'admin', firstName: 'Ada' });
    expect(await (await takeEarlyResponse('/api/audit?limit=5'))?.json()).toEqual({ url: '/api/audit?limit=5' });
  });

  it('hands each answer over once, and none at all under another token', async () => {
    stubPage('/', 'tok-1');
    startFirstLoad([]);
    await settle();
    expect(takeEarlyResponse('/api/health')).toBeDefined();
    expect(takeEarlyResponse('/api/health')).toBeUndefined();
    expect(takeEarlyResponse('/api/contracts?limit=50')).toBeUndefined();
    storage.set('authToken', 'tok-2');
    expect(takeEarlyResponse('/api/dashboard/stats')).toBeUndefined();
    // Once refused, everything left is dropped, also for the first token.
    storage.set('authToken', 'tok-1');
    expect(takeEarlyResponse('/api/users?limit=1')).toBeUndefined();
    expect(window.__adcrmEarly?.left()).toEqual([]);
  });

  it('hands nothing over once dropped (sign-in, sign-out)', async () => {
    stubPage('/', 'tok-1');
    startFirstLoad([]);
    await settle();
    expect(window.__adcrmEarly?.left()).toHaveLength(5);
    forgetEarlyResponses();
    expect(takeEarlyResponse('/api/auth/me')).toBeUndefined();
    expect(takeEarlyResponse('/api/health')).toBeUndefined();
  });

  it('hands nothing over once the answers are older than the limit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    stubPage('/', 'tok-1');
    startFirstLoad([]);
    await settle();
    vi.setSystemTime(Date.now() + EARLY_RESPONSE_MAX_AGE_MS + 1);
    expect(takeEarlyResponse('/api/auth/me')).toBeUndefined();
  });

  it('asks only who it is on any other page, and preloads nothing', async () => {
    stubPage('/contracts', 'tok-1');
    startFirstLoad(['/assets/shell-1.js']);
    await settle();
    expect(calls.map((call) => call.url)).toEqual(['/api/auth/me']);
    expect(links).toEqual([]);
  });

  it('without a token (the login page): asks who it is with the cookie only, preloads nothing, asks nothing else on a 401', async () => {
    meAnswer = () => new Response('{"message":"Not signed in"}', { status: 401 });
    stubPage('/', null);
    startFirstLoad(['/assets/shell-1.js']);
    await settle();
    expect(calls).toEqual([{ url: '/api/auth/me', headers: {}, credentials: 'include' }]);
    expect(links).toEqual([]);
  });

  it('a session cookie alone: the dashboard data of the user the server names', async () => {
    meAnswer = () => new Response(JSON.stringify({ id: 'c-9', role: 'client' }), { status: 200 });
    stubPage('/', null);
    startFirstLoad(['/assets/shell-1.js']);
    await settle();
    expect(calls.map((call) => call.url)).toEqual([
      '/api/auth/me',
      '/api/client/summary',
      '/api/client/contracts?limit=100',
      '/api/client/invoices?limit=5',
    ]);
    expect(links).toEqual([]);
  });
});
