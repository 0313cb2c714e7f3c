import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Route -> service -> repo (docs/architecture.md, "Where things live"): a module's statements are written in
 * its repos (`*.repo.ts`), and a ledger (`*.ledger.ts`) writes its own tables; services and every other
 * module file call a named repo function. A service may still build a plain SQL fragment (a filter) that it
 * passes to a repo; what it may not do is run a query builder or a statement itself. The same holds in
 * `server/plugins/` and `server/lib/`: their statements are in their repos (`idempotency.repo.ts`,
 * `rate-limit.repo.ts`, ...), besides the few files named below that are database infrastructure themselves.
 */

const SERVER = path.resolve(import.meta.dirname, '..');
const MODULES = path.join(SERVER, 'modules');

/** Module files besides the repos and ledgers that run their own statements, each for a reason. */
const STATEMENT_OWNERS: Record<string, string> = {
  'billing/billing-run.ts':
    'the billing run: one set-based INSERT ... SELECT per chunk of contracts is the engine itself (decision 011)',
  'sessions/sessions.ts': 'the sessions module is this one file: the session store and its prepared lookup',
};

/** Files of server/lib and server/plugins besides their repos that run their own statements: infrastructure. */
const INFRASTRUCTURE_OWNERS: Record<string, string> = {
  'lib/audit.ts': 'recordAudit: the audit event every change writes in its own transaction, from every module',
  'lib/mailer.ts':
    'the mailer and its outbox: e-mails queued in the caller’s transaction, claimed and sent after commit',
  'lib/notify.ts': 'notify: notifications and their e-mail copies in the caller’s transaction, in one statement',
  'lib/planner-statistics.ts': 'ANALYZE on the embedded database: maintenance of the database itself, no table’s rows',
};

/** A query builder or statement run on a database handle (`db`, `tx`, `deps.db`, `app.db`), over lines too. */
const RUNS_QUERY =
  /\b(?:db|tx)\s*\.\s*(?:select|selectDistinct|selectDistinctOn|insert|update|delete|execute|query|\$count|\$with|with)\s*[(.<]/g;
/** A whole statement written as SQL text (a filter or an expression is a fragment, and fine). */
const STATEMENT_TEXT = /\bsql`\s*(?:select|insert|update|delete|with|lock|set)\s/gi;

/** The text without its comments, each line where it was. */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/^\s*\/\/.*$/gm, '');

/** Each place the text runs a query or holds a statement, as "line: code". */
function statementsIn(text: string): string[] {
  const source = withoutComments(text);
  const found: string[] = [];
  for (const pattern of [RUNS_QUERY, STATEMENT_TEXT]) {
    for (const match of source.matchAll(pattern)) {
      const line = source.slice(0, match.index).split('\n').length;
      found.push(`${line}: ${match[0].replace(/\s+/g, ' ').trim()}`);
    }
  }
  return found;
}

function moduleFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const relativeTo = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/');
const files = moduleFiles(MODULES).map((file) => relativeTo(MODULES, file));
/** Every file of server/plugins and server/lib, as "plugins/auth.ts". */
const sharedFiles = [path.join(SERVER, 'plugins'), path.join(SERVER, 'lib')]
  .flatMap(moduleFiles)
  .map((file) => relativeTo(SERVER, file));
const isService = (file: string) => file.endsWith('.service.ts');
const ownsStatements = (file: string) =>
  file.endsWith('.repo.ts') || file.endsWith('.ledger.ts') || file in STATEMENT_OWNERS;

function statementsOf(selected: string[], root = MODULES): string[] {
  return selected.flatMap((file) =>
    statementsIn(fs.readFileSync(path.join(root, file), 'utf8')).map((at) => `${file}:${at}`),
  );
}

describe('the layers of a module', () => {
  it('finds statements in code written out by hand, and nothing else', () => {
    const sample = [
      'const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);', // 1
      'const rows = await deps.db', // 2
      '  .select({ id: customers.id })', // 3
      '  .from(customers);', // 4
      'const [updated] = await tx', // 5
      '  .update(users)', // 6
      '  .set({ passwordHash });', // 7
      'await tx.execute(sql`select name from customers where id = $1`);', // 8
      'await db.insert(sessions).values(row);', // 9
      'await tx.delete(creatives).where(eq(creatives.id, id));', // 10
      'const stmt = sql`update line_deliveries set credit_note_id = $1`;', // 11
      // Not statements: a filter passed to a repo, a transaction, hashes, storage, routes, comments.
      "const where = sql`i.customer_id = c.id and c.status <> 'draft'`;", // 12
      'await db.transaction(async (tx) => repo.insertUser(tx, values));', // 13
      'hash.update(chunk); await deps.storage.delete(key); r.delete("/api/x", handler);', // 14
      '// the service used to call db.select() itself', // 15
      '/** tx.execute(sql`select 1`)', // 16
      '    was here */ const dbName = config.db; const txt = sql`coalesce(d.clicks, 0)`;', // 17
    ].join('\n');
    expect(statementsIn(sample)).toEqual([
      '1: db.select(',
      '2: db .select(',
      '5: tx .update(',
      '8: tx.execute(',
      '9: db.insert(',
      '10: tx.delete(',
      '8: sql`select',
      '11: sql`update',
    ]);
  });

  it('reads every module file', () => {
    expect(files.filter(isService).length).toBeGreaterThan(25);
    expect(files).toContain('creatives/creatives.service.ts');
    expect(files).toContain('notifications/contract-notices.ts');
    for (const owner of Object.keys(STATEMENT_OWNERS)) expect(files).toContain(owner);
    // The repos hold statements the detector sees (were it blind, the checks below would pass on anything).
    expect(statementsOf(['creatives/creatives.repo.ts', 'delivery/delivery.repo.ts']).length).toBeGreaterThan(5);
  });

  it('runs no query builder or statement in a service: it calls its repo', () => {
    expect(statementsOf(files.filter(isService))).toEqual([]);
  });

  it('runs statements only in repos, ledgers and the named engines', () => {
    expect(statementsOf(files.filter((file) => !isService(file) && !ownsStatements(file)))).toEqual([]);
  });

  it('reads every file of plugins and lib', () => {
    expect(sharedFiles).toContain('plugins/idempotency.ts');
    expect(sharedFiles).toContain('plugins/rate-limit.ts');
    expect(sharedFiles).toContain('lib/storage.ts');
    expect(sharedFiles.some((file) => file.endsWith('.test.ts'))).toBe(false);
    // The repos hold statements the detector sees, and so does each named file (a stale name would fail here).
    expect(statementsOf(['plugins/idempotency.repo.ts', 'plugins/rate-limit.repo.ts'], SERVER).length).toBeGreaterThan(
      5,
    );
    for (const owner of Object.keys(INFRASTRUCTURE_OWNERS)) {
      expect(sharedFiles).toContain(owner);
      expect(statementsOf([owner], SERVER).length, owner).toBeGreaterThan(0);
    }
  });

  it('runs statements in plugins and lib only in their repos and the named infrastructure', () => {
    const others = sharedFiles.filter((file) => !file.endsWith('.repo.ts') && !(file in INFRASTRUCTURE_OWNERS));
    expect(statementsOf(others, SERVER)).toEqual([]);
  });
});
