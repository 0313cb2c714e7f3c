import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The client's features stay apart (docs/architecture.md, "Where things live"): a file under
 * `client/src/features/<a>/` imports nothing of another feature `<b>`, and `components/` and `lib/` import no
 * feature at all. A page under `app/` composes features and hands one's parts to another (the dashboard page
 * passes the contracts feature's "Renew" to the dashboard's "Renewals due"). The exceptions, each for a reason:
 */
const ALLOWED: Record<string, string> = {
  'auth/api/me': 'the current user: who is signed in and what they may do, which every feature reads',
};

const SRC = import.meta.dirname;
const FEATURES = path.join(SRC, 'features');

/** The text without its comments (an example in a doc comment imports nothing). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every module a file imports or re-exports, as written ("@/features/x/api/y", "../../x/api/y", "react"). */
function importsIn(text: string): string[] {
  const found: string[] = [];
  const source = withoutComments(text);
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

/**
 * The feature-relative path an import reaches ("contracts/api/renew-contract"), or null when it reaches no
 * feature. `from` is the importing file's folder, for relative imports.
 */
function featureTarget(specifier: string, from: string): string | null {
  let target: string;
  if (specifier.startsWith('@/')) target = path.join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) target = path.resolve(from, specifier);
  else return null;
  const relative = path.relative(FEATURES, target);
  if (relative.startsWith('..') || path.isAbsolute(relative) || relative === '') return null;
  return relative.split(path.sep).join('/');
}

const featureOf = (file: string): string | null => {
  const relative = path.relative(FEATURES, file);
  return relative.startsWith('..') ? null : relative.split(path.sep)[0];
};

/** The imports of `file` that cross into a feature it may not use, as "file: specifier". */
function crossings(file: string, text: string): string[] {
  const own = featureOf(file);
  return importsIn(text)
    .filter((specifier) => {
      const target = featureTarget(specifier, path.dirname(file));
      if (target === null) return false;
      if (own !== null && target.split('/')[0] === own) return false;
      return !(target.replace(/\.(tsx?)$/, '') in ALLOWED);
    })
    .map((specifier) => `${path.relative(SRC, file).split(path.sep).join('/')}: ${specifier}`);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const scanned = ['features', 'components', 'lib'].flatMap((dir) => sourceFiles(path.join(SRC, dir)));
const allCrossings = () => scanned.flatMap((file) => crossings(file, fs.readFileSync(file, 'utf8')));

describe('the client’s feature boundaries', () => {
  it('recognises an import of another feature, and nothing else', () => {
    const inDashboard = path.join(FEATURES, 'dashboard', 'components', 'card.tsx');
    const inLib = path.join(SRC, 'lib', 'format.ts');
    const cases: [string, string, string[]][] = [
      [
        inDashboard,
        "import { useRenewContract } from '@/features/contracts/api/renew-contract';",
        ['@/features/contracts/api/renew-contract'],
      ],
      [inDashboard, "import { x } from '../../contracts/api/renew-contract';", ['../../contracts/api/renew-contract']],
      [
        inDashboard,
        "export { y } from '@/features/invoices/components/invoice-table';",
        ['@/features/invoices/components/invoice-table'],
      ],
      [
        inDashboard,
        "const Chart = lazy(() => import('@/features/reports/components/chart'));",
        ['@/features/reports/components/chart'],
      ],
      [inDashboard, "import '@/features/portal/styles';", ['@/features/portal/styles']],
      [
        inLib,
        "import { useCurrentUser } from '@/features/contracts/api/get-contracts';",
        ['@/features/contracts/api/get-contracts'],
      ],
      // Its own feature, the current user, shared code, packages: fine.
      [inDashboard, "import { useRenewalsDue } from '../api/get-renewals-due';", []],
      [inDashboard, "import { StatCard } from '@/features/dashboard/components/stat-card';", []],
      [inDashboard, "import { useCurrentUser } from '@/features/auth/api/me';", []],
      [inDashboard, "import { Button } from '@/components/ui/button';", []],
      [inDashboard, "import { paths } from '@/lib/paths';", []],
      [inDashboard, "import { can } from '@shared/permissions';\nimport { Link } from 'wouter';", []],
      [
        inLib,
        "/**\n * lazy(() => import('@/features/customers/components/form'))\n */\n// import '@/features/x/y';",
        [],
      ],
    ];
    for (const [file, text, found] of cases) {
      expect(
        crossings(file, text).map((line) => line.split(': ')[1]),
        text,
      ).toEqual(found);
    }
  });

  it('reads the features, components and lib', () => {
    expect(scanned.length).toBeGreaterThan(200);
    // The features import their own files and the current user: the scan sees imports at all.
    const featureImports = scanned
      .filter((file) => featureOf(file) !== null)
      .flatMap((file) => importsIn(fs.readFileSync(file, 'utf8')));
    expect(featureImports).toContain('@/features/auth/api/me');
    expect(featureImports.length).toBeGreaterThan(1000);
  });

  it('has no import of another feature outside app/', () => {
    expect(allCrossings()).toEqual([]);
  });
});
