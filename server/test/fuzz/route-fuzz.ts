import { randomUUID } from 'node:crypto';
import { canAny, type Permission } from '@shared/permissions';
import { ROLES, type Role } from '@shared/roles';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRule } from '../../plugins/authorize';
import { buildTestApp, type TestContext } from '../app';
import {
  boundaryValues,
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  mutate,
  mutation,
  replaceLeaves,
  valid,
  type ZodLike,
} from './zod-arbitraries';

/**
 * Fuzzes every registered API route with inputs derived from its own zod schemas (server/test/fuzz): valid-ish
 * requests, the same with one hostile change (wrong type, empty or huge string, NUL, lone surrogate, a number
 * at or past a bound, an extra or a missing field), random JSON, invalid JSON and wrong content types, in the
 * body, the query string and the path. Every answer must be below 500, carry no stack trace, have the one
 * error shape when it is an error, and a refused request must have stored nothing.
 *
 * 200 cases per route in a run, shared between the databases it tests on: 200 on PGlite alone, 100 on each
 * when PostgreSQL runs too (each engine draws its own random cases, so the run still tries 200 different ones;
 * the inputs are the same SQL on both, PGlite being PostgreSQL). FUZZ_RUNS sets the number per engine;
 * FUZZ_SEED replays a run. Routes added later are fuzzed too. The routes are split into shards by a hash of
 * "METHOD /url", one test file each (server/test/hardening/fuzz-routes-*.test.ts), so that the files run in
 * parallel.
 */
const CASES_PER_RUN = 200;
const ENGINES_IN_RUN = process.env.TEST_DATABASE_URL ? 2 : 1;
const RUNS = Number(process.env.FUZZ_RUNS ?? Math.ceil(CASES_PER_RUN / ENGINES_IN_RUN));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/**
 * Tables a refused request may legitimately write: the session (touched, or ended by logout), the record
 * of password guesses (a wrong password is refused and counted: that is the throttle) and the hits of the
 * public routes' rate limits (every request to such a route counts, refused or not). And the forecast's stored
 * figures (decision 059): derived data that a successful GET of the forecast brings up to date, and that the
 * marks of any write move; not business data a refusal could have stored.
 */
const WRITTEN_ON_REFUSAL = new Set([
  'sessions',
  'login_attempts',
  'rate_limit_hits',
  '__drizzle_migrations',
  'forecast_marks',
  'forecast_months',
  'forecast_sources',
  'forecast_window',
]);

const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+:\d+|\.js:\d+:\d+/;

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string };
type Case = { params: Record<string, string>; query: [string, string][]; body: Body; ip: string };

export function fuzzRoutes(shard: number, of: number): void {
  let ctx: TestContext;
  const tokens = new Map<Role, string>();
  let tables: string[] = [];

  beforeAll(async () => {
    ctx = await buildTestApp();
    const rows = await ctx.db.execute(
      sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    tables = (rows as unknown as { rows: { name: string }[] }).rows
      .map((r) => r.name)
      .filter((name) => !WRITTEN_ON_REFUSAL.has(name));
  });
  afterAll(() => ctx.close());

  async function tokenFor(role: Role, fresh = false): Promise<string> {
    if (fresh || !tokens.has(role)) tokens.set(role, (await ctx.signIn(await ctx.as(role))).token);
    return tokens.get(role)!;
  }

  /** The role a route is fuzzed as: the first that passes its access rule (super_admin for most). */
  function roleFor(rule: RouteRule): Role | null {
    if (rule.access === 'public') return null;
    if (rule.access === 'signed-in') return 'super_admin';
    return ROLES.find((role) => canAny({ role }, rule.access as readonly Permission[])) ?? 'super_admin';
  }

  /** The database's content, as far as a refused request is concerned: rows and newest row version per table. */
  async function fingerprint(): Promise<string> {
    const parts = tables.map(
      (t) =>
        sql`select ${t} as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as f from ${sql.identifier(t)}`,
    );
    const result = await ctx.db.execute(sql.join(parts, sql` union all `));
    return (result as unknown as { rows: { t: string; f: string }[] }).rows.map((r) => `${r.t}=${r.f}`).join(',');
  }

  /** The next transaction id: unchanged means no transaction wrote anything since (the cheap check first). */
  async function nextTransactionId(): Promise<string> {
    const result = await ctx.db.execute(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as x`);
    return (result as unknown as { rows: { x: string }[] }).rows[0].x;
  }

  function encode(text: string): string {
    try {
      return encodeURIComponent(text);
    } catch {
      // A lone surrogate has no UTF-8 form: send the bytes of its would-be encoding.
      return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^A-Za-z0-9%_.~-]/g, (c) => {
        try {
          return encodeURIComponent(c);
        } catch {
          return '%ED%A0%80';
        }
      });
    }
  }

  const asText = (value: unknown): string =>
    typeof value === 'string'
      ? value
      : value === undefined
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);

  function caseArbitrary(rule: RouteRule): fc.Arbitrary<Case> {
    const schema = (rule.schema ?? {}) as { body?: ZodLike; querystring?: ZodLike; params?: ZodLike };
    const extra = boundaryValues([schema.body, schema.querystring, schema.params].filter(Boolean));
    const paramNames = [...rule.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const hasBody = !['GET', 'HEAD', 'DELETE'].includes(rule.method);

    const validParams = schema.params
      ? (valid(schema.params) as fc.Arbitrary<Record<string, unknown>>)
      : fc.record(Object.fromEntries(paramNames.map((n) => [n, fc.uuid() as fc.Arbitrary<unknown>])));
    const params = fc.oneof(
      { weight: 4, arbitrary: validParams },
      {
        weight: 1,
        arbitrary: fc.tuple(validParams, mutation(extra)).map(([p, m]) => mutate(p, { ...m, kind: 'replace' })),
      },
    );
    const validQuery = schema.querystring ? valid(schema.querystring) : fc.constant({});
    const hostileString = fc.constantFrom(...HOSTILE_STRINGS);
    const hostileNumber = fc.constantFrom(...HOSTILE_NUMBERS, ...extra.filter((v) => typeof v === 'number'));
    const query = fc.oneof(
      { weight: 3, arbitrary: validQuery },
      { weight: 2, arbitrary: fc.tuple(validQuery, mutation(extra)).map(([q, m]) => mutate(q, m)) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(validQuery, hostileString)
          .map(([q, text]) => replaceLeaves(replaceLeaves(q, 'number', text), 'string', text)),
      },
    );
    const validBody = schema.body ? valid(schema.body) : fc.constant({});
    const body: fc.Arbitrary<Body> = hasBody
      ? fc.oneof(
          { weight: 3, arbitrary: validBody.map((value) => ({ kind: 'json', value }) as Body) },
          {
            weight: 6,
            arbitrary: fc
              .tuple(validBody, mutation(extra))
              .map(([v, m]) => ({ kind: 'json', value: mutate(v, m) }) as Body),
          },
          {
            // Every text field at once gets the same hostile text.
            weight: 3,
            arbitrary: fc
              .tuple(validBody, hostileString)
              .map(([v, text]) => ({ kind: 'json', value: replaceLeaves(v, 'string', text) }) as Body),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(validBody, hostileNumber)
              .map(([v, n]) => ({ kind: 'json', value: replaceLeaves(v, 'number', n) }) as Body),
          },
          { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ kind: 'json', value }) as Body) },
          {
            weight: 1,
            arbitrary: fc
              .constantFrom(
                '{',
                '{"a":',
                '[1,2',
                'null',
                '"text"',
                '{"__proto__":{"isAdmin":true}}',
                '{"constructor":{"prototype":{"x":1}}}',
                '{"a":1,"a":2}',
                `{"x":"${'\\u0000'.repeat(3)}"}`,
                '{"x":"\\ud800"}',
                '\u0000',
                '',
              )
              .map((text) => ({ kind: 'raw', text, type: 'application/json' }) as Body),
          },
          {
            weight: 1,
            arbitrary: fc
              .constantFrom(
                'text/plain',
                'application/x-www-form-urlencoded',
                'application/xml',
                'multipart/form-data; boundary=x',
                'application/json; charset=latin1',
              )
              .map((type) => ({ kind: 'raw', text: 'a=1&b=2', type }) as Body),
          },
        )
      : fc.constant({ kind: 'none' } as Body);

    return fc.record({
      params: params.map((p) =>
        Object.fromEntries(
          paramNames.map((n) => [n, asText((p as Record<string, unknown> | null)?.[n] ?? randomUUID())]),
        ),
      ),
      query: query.map((q) =>
        q !== null && typeof q === 'object' && !Array.isArray(q)
          ? Object.entries(q as Record<string, unknown>).flatMap(([k, v]) =>
              Array.isArray(v)
                ? v.map((item) => [k, asText(item)] as [string, string])
                : [[k, asText(v)] as [string, string]],
            )
          : [['q', asText(q)] as [string, string]],
      ),
      body,
      ip: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
    });
  }

  function urlOf(rule: RouteRule, c: Case): string {
    let path = rule.url;
    for (const [name, value] of Object.entries(c.params)) path = path.replace(`:${name}`, encode(value) || '%20');
    const qs = c.query
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${encode(k)}=${encode(v)}`)
      .join('&');
    return qs ? `${path}?${qs}` : path;
  }

  async function send(rule: RouteRule, c: Case, role: Role | null): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (role) headers.authorization = `Bearer ${await tokenFor(role)}`;
    let payload: string | undefined;
    if (c.body.kind === 'json') {
      payload = JSON.stringify(c.body.value) ?? 'null';
      headers['content-type'] = 'application/json';
    } else if (c.body.kind === 'raw') {
      payload = c.body.text;
      headers['content-type'] = c.body.type;
    }
    return ctx.app.inject({
      method: rule.method as 'GET',
      url: urlOf(rule, c),
      headers,
      payload,
      remoteAddress: c.ip,
    });
  }

  describe(`fuzzing the API routes of shard ${shard} of ${of} with inputs derived from their schemas`, () => {
    const mine = () => ctx.app.routeRules.filter((rule) => shardOf(`${rule.method} ${rule.url}`, of) === shard);

    it('finds routes to fuzz', () => {
      expect(ctx.app.routeRules.length).toBeGreaterThan(40);
      expect(mine().length).toBeGreaterThan(ctx.app.routeRules.length / of / 2);
    });

    it(`answers every case below 500, without stack traces, and stores nothing on refusal (${RUNS} cases per route)`, async () => {
      const problems: string[] = [];
      const statuses = new Map<string, Record<number, number>>();
      // Every role's user and session exist before the baseline is taken.
      for (const role of ROLES) await tokenFor(role);
      const timing: [string, number][] = [];
      let lastXid = await nextTransactionId();
      let lastPrint = await fingerprint();

      for (const rule of mine()) {
        const route = `${rule.method} ${rule.url}`;
        const role = roleFor(rule);
        const tally: Record<number, number> = {};
        statuses.set(route, tally);
        const started = Date.now();
        await fc.assert(
          fc.asyncProperty(caseArbitrary(rule), async (c) => {
            const response = await send(rule, c, role);
            tally[response.statusCode] = (tally[response.statusCode] ?? 0) + 1;
            const where = () =>
              `${route} ${urlOf(rule, c).slice(0, 200)} ${c.body.kind === 'none' ? '' : JSON.stringify(c.body).slice(0, 300)}`;
            if (response.statusCode >= 500)
              problems.push(`${response.statusCode} ${where()} -> ${response.body.slice(0, 300)}`);
            if (STACK_TRACE.test(response.body) && /json|text/.test(String(response.headers['content-type']))) {
              problems.push(`stack trace in ${where()} -> ${response.body.slice(0, 300)}`);
            }
            if (response.statusCode >= 400 && String(response.headers['content-type']).includes('application/json')) {
              const json = response.json();
              if (typeof json?.message !== 'string' || typeof json?.code !== 'string') {
                problems.push(`error shape ${response.statusCode} ${where()} -> ${response.body.slice(0, 200)}`);
              }
            }
            // A refusal must leave the database as it was; a write that succeeded moves the baseline. (A GET
            // that succeeds writes nothing of interest, so it skips the check.)
            if (response.statusCode >= 400 || rule.method !== 'GET') {
              const xid = await nextTransactionId();
              if (xid !== lastXid) {
                const print = await fingerprint();
                if (response.statusCode >= 400 && print !== lastPrint) {
                  const before = new Set(lastPrint.split(','));
                  const changed = print.split(',').filter((part) => !before.has(part));
                  problems.push(`stored on refusal (${response.statusCode}) ${where()}: ${changed.join(' ')}`);
                }
                lastPrint = print;
                lastXid = await nextTransactionId();
              }
            }
            // Sign in again after a route that ends the session (logout) or a password change elsewhere.
            if (role && response.statusCode === 401 && rule.access !== 'public') await tokenFor(role, true);
            return problems.length < 20;
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        timing.push([route, Date.now() - started]);
        if (problems.length >= 20) break;
      }
      if (process.env.FUZZ_TIMING)
        console.log(
          timing
            .sort((a, b) => b[1] - a[1])
            .slice(0, 25)
            .map(([r, ms]) => `${ms}ms ${r} ${JSON.stringify(statuses.get(r))}`)
            .join('\n'),
        );
      expect(problems, `${problems.length} problems:\n${problems.join('\n')}`).toEqual([]);
      // Most routes must have been exercised beyond validation at least once (a 2xx, 404 or 409).
      const reached = [...statuses.values()].filter((t) =>
        Object.keys(t).some((s) => !['400', '401', '403', '415'].includes(s)),
      );
      expect(reached.length).toBeGreaterThan(mine().length / 2);
    }, 1_800_000);
  });
}

/** A stable shard number (1..of) for a route. */
function shardOf(route: string, of: number): number {
  let hash = 0;
  for (const char of route) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (hash % of) + 1;
}
