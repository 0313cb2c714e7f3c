import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's modules form a tree you can draw (docs/architecture.md, "Module tree"): no import runs back
 * up, and whoever imports a module (another module, app.ts, server.ts, jobs.ts, a plugin) reaches it through
 * its public files only, never its repo. Tests, test helpers and the demo seeding (which composes
 * everything, like app.ts) are outside the graph.
 */

const SERVER = path.resolve(import.meta.dirname, '..');

/** The unit a server file belongs to: a feature module, lib, plugins, db, or a top-level file. */
function unitOf(file: string): string {
  const parts = path.relative(SERVER, file).split(path.sep);
  if (parts[0] === 'modules') return parts.length > 2 ? `modules/${parts[1]}` : 'modules';
  if (parts.length > 1) return parts[0];
  return parts[0].replace(/\.ts$/, '');
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'migrations', 'demo'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** An import between units: `target` is the file imported, relative to server/ (as `file` is). */
type Edge = { from: string; to: string; file: string; specifier: string; target: string };

function importsOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const edges: Edge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier);
    edges.push({
      from: unitOf(file),
      to: unitOf(`${target}.ts`),
      file: path.relative(SERVER, file),
      specifier,
      target: path.relative(SERVER, `${target}.ts`),
    });
  }
  return edges;
}

/** Every cycle of units in a graph, each as the units on it (Tarjan's strongly connected components). */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return cycles;
}

const edges = sourceFiles(SERVER)
  .flatMap(importsOf)
  .filter((edge) => edge.from !== edge.to);

/**
 * What a module offers the rest of the server, by the role in a file's name: its service (the rules), a
 * ledger (the money others write through: commissions, credit notes, invoices), the response schemas and
 * DTO mappers other routes answer with, the e-mails others queue and a CSV others export. Its routes are
 * registered by the route registry (modules/index.ts, which app.ts calls) only. A repo is its module's own.
 */
const PUBLIC_ROLES = ['service', 'ledger', 'response', 'dto', 'emails', 'csv'];
const ROUTE_REGISTRARS = ['modules', 'app'];

/** Public files without a role in their name, each for a reason. */
const ENTRY_POINTS: Record<string, string> = {
  'modules/sessions/sessions.ts': "the caller's session and the Actor type every module and the auth plugin use",
  'modules/billing/billing-run.ts': 'the billing run, started by its job and by a settled checkout',
  'modules/notifications/contract-notices.ts': 'the contract notices status changes, dunning and a daily job send',
  'modules/api-keys/api-key-auth.ts':
    'the API-key half of authentication: a key checked, its scope, for the auth plugins',
  'modules/webhooks/webhook-events.ts':
    'the outbox: emitWebhookEvent, which every module that changes state calls in its transaction (decision 042)',
};

/** Imported by the modules as lib/ is, so not an edge of the tree: the sessions module and the webhooks' outbox. */
const usedLikeLib = (edge: Pick<Edge, 'to' | 'target'>) =>
  edge.to === 'modules/sessions' || edge.target.split(path.sep).join('/') === 'modules/webhooks/webhook-events.ts';

/** Why an import reaches into a module it may not, or null when it may. */
function refusalOf(edge: Pick<Edge, 'from' | 'to' | 'target'>): string | null {
  if (!edge.to.startsWith('modules/') || edge.from === edge.to) return null;
  const name = path.basename(edge.target, '.ts');
  const role = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : null;
  if (role === 'repo') return "another module's repo";
  if (role === 'routes')
    return ROUTE_REGISTRARS.includes(edge.from) ? null : 'routes, which only modules/index.ts registers';
  if (role !== null && PUBLIC_ROLES.includes(role)) return null;
  if (edge.target.split(path.sep).join('/') in ENTRY_POINTS) return null;
  return 'a file private to its module';
}

/**
 * The modules each module imports (besides sessions, whose session and Actor type every module uses, and the
 * webhooks' outbox, through which every module that changes state raises its events).
 */
function moduleEdges(): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (!edge.from.startsWith('modules/') || !edge.to.startsWith('modules/') || usedLikeLib(edge)) continue;
    const from = edge.from.slice('modules/'.length);
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(edge.to.slice('modules/'.length));
  }
  return new Map([...graph].map(([from, to]) => [from, [...to].sort()]));
}

/**
 * The money modules' edges, written out (docs/architecture.md, "Module tree"): each module imports exactly
 * these. A new edge, or one that is gone, changes this table and the drawing together.
 */
const MONEY_MODULE_EDGES: Record<string, string[]> = {
  contracts: ['billing', 'contract-status', 'customers', 'insertion-orders', 'inventory', 'invitations', 'users'],
  billing: ['commissions', 'contract-status', 'credit-notes', 'invoices', 'settings'],
  // The autopay of an invoice's answer reads when it is charged (the autopayChargeOn setting).
  invoices: ['settings'],
  payments: [
    'billing',
    'commissions',
    'contract-status',
    'credit-notes',
    'dunning',
    'insertion-orders',
    'inventory',
    'invoices',
  ],
  'credit-notes': ['commissions', 'contract-status', 'invoices'],
  // Autopay charges through the payments core and hears of billing and checkouts by the hooks they offer.
  autopay: ['billing', 'contract-status', 'dunning', 'invoices', 'payments', 'settings'],
  commissions: [],
  dunning: ['billing', 'contract-status', 'invoices', 'notifications', 'settings'],
  'contract-status': ['notifications'],
  delivery: ['credit-notes', 'invoices', 'settings'],
  // The client's figures come from the billing engine (previews, the next scheduled charges).
  'client-portal': ['billing', 'contracts', 'insertion-orders'],
  // The contract as sent, frozen from the billing engine's figures and schedule and Contract Settings' terms.
  'insertion-orders': ['billing', 'settings'],
};

describe('the module graph', () => {
  it('finds cycles in a graph written out by hand', () => {
    const graph = (pairs: [string, string][]) => {
      const g = new Map<string, Set<string>>();
      for (const [a, b] of pairs) {
        if (!g.has(a)) g.set(a, new Set());
        if (!g.has(b)) g.set(b, new Set());
        g.get(a)!.add(b);
      }
      return g;
    };
    expect(
      cyclesOf(
        graph([
          ['a', 'b'],
          ['b', 'c'],
        ]),
      ),
    ).toEqual([]);
    expect(
      cyclesOf(
        graph([
          ['a', 'b'],
          ['b', 'a'],
          ['b', 'c'],
        ]),
      ),
    ).toEqual([['a', 'b']]);
    expect(
      cyclesOf(
        graph([
          ['contracts', 'billing'],
          ['billing', 'invoices'],
          ['invoices', 'contracts'],
          ['x', 'y'],
        ]),
      ),
    ).toEqual([['billing', 'contracts', 'invoices']]);
  });

  it('reads the units of real files', () => {
    expect(unitOf(path.join(SERVER, 'modules/billing/billing-run.ts'))).toBe('modules/billing');
    expect(unitOf(path.join(SERVER, 'modules/index.ts'))).toBe('modules');
    expect(unitOf(path.join(SERVER, 'lib/mailer.ts'))).toBe('lib');
    expect(unitOf(path.join(SERVER, 'config.ts'))).toBe('config');
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual(
      expect.objectContaining({
        from: 'modules/contracts',
        to: 'modules/billing',
        file: 'modules/contracts/contracts.service.ts',
      }),
    );
  });

  it('has no import cycle between server modules', () => {
    const graph = new Map<string, Set<string>>();
    for (const edge of edges) {
      if (!graph.has(edge.from)) graph.set(edge.from, new Set());
      graph.get(edge.from)!.add(edge.to);
    }
    const cycles = cyclesOf(graph).map((units) => ({
      units,
      imports: edges
        .filter((e) => units.includes(e.from) && units.includes(e.to))
        .map((e) => `${e.file} -> ${e.specifier}`),
    }));
    expect(cycles).toEqual([]);
  });

  it('refuses by hand-written imports what the architecture refuses, and allows what it allows', () => {
    const at = (from: string, target: string) => refusalOf({ from, to: unitOf(path.join(SERVER, target)), target });
    expect(at('jobs', 'modules/reports/reports.repo.ts')).toBe("another module's repo");
    expect(at('modules/delivery', 'modules/invoices/invoices.repo.ts')).toBe("another module's repo");
    expect(at('modules/invitations', 'modules/users/users.repo.ts')).toBe("another module's repo");
    expect(at('modules/creatives', 'modules/client-portal/client-scope.ts')).toBe('a file private to its module');
    expect(at('modules/delivery', 'modules/invoices/invoices.delivery.ts')).toBe('a file private to its module');
    expect(at('modules/contracts', 'modules/invoices/invoices.pdf.ts')).toBe('a file private to its module');
    expect(at('modules/contracts', 'modules/billing/billing.routes.ts')).toBe(
      'routes, which only modules/index.ts registers',
    );
    expect(at('jobs', 'modules/reports/reports.service.ts')).toBeNull();
    expect(at('modules/payments', 'modules/invoices/invoices.ledger.ts')).toBeNull();
    expect(at('modules/billing', 'modules/invoices/invoices.emails.ts')).toBeNull();
    expect(at('modules', 'modules/billing/billing.routes.ts')).toBeNull();
    expect(at('jobs', 'modules/billing/billing-run.ts')).toBeNull();
    expect(at('plugins', 'modules/sessions/sessions.ts')).toBeNull();
    expect(at('modules/invoices', 'modules/invoices/invoices.repo.ts')).toBeNull();
  });

  it('reads the imports of jobs.ts, app.ts, server.ts and the ledgers', () => {
    const files = new Set(edges.map((e) => e.file));
    for (const file of ['jobs.ts', 'app.ts', 'server.ts', 'modules/index.ts', 'plugins/auth.ts']) {
      expect(files).toContain(file);
    }
    expect(edges).toContainEqual(
      expect.objectContaining({ from: 'jobs', target: path.join('modules', 'billing', 'billing-run.ts') }),
    );
    expect(edges).toContainEqual(
      expect.objectContaining({
        file: path.join('modules', 'payments', 'payments.service.ts'),
        target: path.join('modules', 'commissions', 'commissions.ledger.ts'),
      }),
    );
    for (const entry of Object.keys(ENTRY_POINTS)) expect(fs.existsSync(path.join(SERVER, entry))).toBe(true);
  });

  it("never reaches into another module's repo, whoever imports it", () => {
    const intoRepos = edges
      .filter((e) => e.to.startsWith('modules/') && e.from !== e.to && /\.repo$/.test(path.basename(e.target, '.ts')))
      .map((e) => `${e.file} -> ${e.specifier}`);
    expect(intoRepos).toEqual([]);
  });

  it('reaches a module through its public files only, from other modules and from jobs.ts, app.ts, server.ts', () => {
    const refused = edges.flatMap((e) => {
      const reason = refusalOf(e);
      return reason ? [`${e.file} -> ${e.specifier}: ${reason}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it('keeps the money modules to the edges drawn', () => {
    const graph = moduleEdges();
    const actual = Object.fromEntries(Object.keys(MONEY_MODULE_EDGES).map((m) => [m, graph.get(m) ?? []]));
    expect(actual).toEqual(MONEY_MODULE_EDGES);
  });

  it('keeps the invoices, the records, below the modules that move money', () => {
    const fromInvoices = edges
      .filter((e) => e.from === 'modules/invoices')
      .filter((e) => ['payments', 'credit-notes', 'billing', 'dunning'].some((m) => e.to === `modules/${m}`))
      .map((e) => `${e.file} -> ${e.specifier}`);
    expect(fromInvoices).toEqual([]);
  });
});
