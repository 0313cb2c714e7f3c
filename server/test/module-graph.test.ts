import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's modules form a tree you can draw (docs/architecture.md, "Module tree"): no import runs back
 * up, and a module reaches another through its service, never its repo. Tests, test helpers and the demo
 * seeding (which composes everything, like app.ts) are outside the graph.
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

type Edge = { from: string; to: string; file: string; specifier: string };

function importsOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const edges: Edge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier);
    edges.push({ from: unitOf(file), to: unitOf(`${target}.ts`), file: path.relative(SERVER, file), specifier });
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

  it('reaches another module through its service, never its repo', () => {
    const intoRepos = edges
      .filter((e) => e.from.startsWith('modules/') && e.to.startsWith('modules/') && /\.repo$/.test(e.specifier))
      .map((e) => `${e.file} -> ${e.specifier}`);
    expect(intoRepos).toEqual([]);
  });
});
