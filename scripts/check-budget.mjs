// The client's JavaScript budget, checked by `npm test` (test:e2e, after the build).
//
// For each screen it adds up the gzip size of every JS chunk the screen needs before it can paint: the
// entry and its static imports (the login form is one of them), plus the lazily loaded chunks that screen
// cannot paint without (the signed-in shell and the route's page), following the Vite manifest's static
// imports. Chunks loaded later (dialogs, the toast region, the header's menus, other screens) are not
// counted. What a page loads in all until the network is idle, on the wire, is measured by `npm run bench`
// (docs/performance.md, "Client weight").
//
//   login page            <= 100 kB gzip, and <= 1.5 x a bare Vite + React template built the same way
//                            (bench/template, built here into dist/bench-template)
//   any signed-in screen  <= 170 kB gzip (first load: entry + shell + page)
//
// Usage: node scripts/check-budget.mjs [--build] [--json] [clientDist]
//   --build  builds the client first (otherwise dist/client must be a current build, as after `npm run build`)
//   --json   prints the figures as JSON (bench/run.ts reads them)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const clientDist = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'dist/client'));
const templateDist = path.join(root, 'dist/bench-template');

export const BUDGETS = { loginKb: 100, loginVsTemplate: 1.5, signedInKb: 170 };

/**
 * Screens allowed more than the signed-in budget, each with why (docs/performance.md, "Client weight"). None:
 * the contract form, allowed 182 kB until its selects loaded the Radix select on first use (lazy-select.tsx),
 * and the client portal, allowed 171 kB, are both within 170 kB.
 */
export const SCREEN_BUDGETS = {};

const log = (...parts) => {
  if (!json) console.log(...parts);
};

function vite(configArgs) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', ...configArgs], {
    cwd: root,
    stdio: json ? 'ignore' : ['ignore', 'ignore', 'inherit'],
  });
}

if (args.includes('--build')) {
  log('building the client...');
  vite(['--outDir', clientDist, '--emptyOutDir']);
}
log('building the bare Vite + React template (bench/template)...');
vite(['--config', path.join(root, 'bench/template/vite.config.ts')]);

function readManifest(dist) {
  const file = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: build the client first (npm run build)`);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const gzipCache = new Map();
function gzipBytes(dist, file) {
  const full = path.join(dist, file);
  if (!gzipCache.has(full)) gzipCache.set(full, gzipSync(fs.readFileSync(full), { level: 9 }).length);
  return gzipCache.get(full);
}

/** The JS files a set of manifest entries needs: the entries and, recursively, their static imports. */
function closure(manifest, keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files];
}

function measure(dist, manifest, keys) {
  const files = closure(manifest, keys);
  const bytes = files.reduce((sum, file) => sum + gzipBytes(dist, file), 0);
  return { kb: bytes / 1000, files };
}

const template = readManifest(templateDist);
const templateEntry = Object.keys(template).find((key) => template[key].isEntry);
const templateKb = measure(templateDist, template, [templateEntry]).kb;

const manifest = readManifest(clientDist);
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const loginKey = 'src/features/auth/components/login-form.tsx';
const layoutKey = 'src/app/layout/app-layout.tsx';
const withLazy = (key) => (manifest[key]?.isDynamicEntry ? [key] : []);

// Pages the router renders without the signed-in shell (pay link, checkout, ...) load without it: router.tsx
// declares them one by one as `const X = lazy(() => import('./routes/x'))`, the signed-in screens in its
// SCREENS table.
const router = fs.readFileSync(path.join(root, 'client/src/app/router.tsx'), 'utf8');
const publicPages = new Set(
  [...router.matchAll(/const \w+ = lazy\(\(\) => import\('\.\/routes\/([\w-]+)'\)\)/g)].map(([, file]) => file),
);

const screens = [{ name: 'login', keys: [entry, ...withLazy(loginKey)], budgetKb: BUDGETS.loginKb }];
for (const key of Object.keys(manifest).sort()) {
  const match = key.match(/^src\/app\/routes\/(.+)\.tsx$/);
  if (!match || !manifest[key].isDynamicEntry) continue;
  const shell = publicPages.has(match[1]) ? [] : withLazy(layoutKey);
  const name = publicPages.has(match[1]) ? `${match[1]} (public)` : match[1];
  screens.push({ name, keys: [entry, ...shell, key], budgetKb: SCREEN_BUDGETS[name] ?? BUDGETS.signedInKb });
}

const results = screens.map((screen) => ({ ...screen, ...measure(clientDist, manifest, screen.keys) }));
const login = results[0];
const loginLimit = Math.min(BUDGETS.loginKb, BUDGETS.loginVsTemplate * templateKb);
const failures = [];
if (login.kb > loginLimit) {
  failures.push(
    `login page: ${login.kb.toFixed(1)} kB gzip of JS exceeds its budget of ${loginLimit.toFixed(1)} kB ` +
      `(${BUDGETS.loginKb} kB, and ${BUDGETS.loginVsTemplate} x the bare template's ${templateKb.toFixed(1)} kB)`,
  );
}
for (const screen of results.slice(1)) {
  if (screen.kb > screen.budgetKb) {
    failures.push(
      `${screen.name} screen: first load of ${screen.kb.toFixed(1)} kB gzip of JS exceeds its budget of ${screen.budgetKb} kB`,
    );
  }
}

// Every built JS and CSS file of 1 KiB or more must have its precompressed siblings (scripts/vite-precompress.mjs).
const missing = [];
for (const chunk of Object.values(manifest)) {
  for (const file of [chunk.file, ...(chunk.css ?? [])]) {
    const full = path.join(clientDist, file);
    if (fs.statSync(full).size < 1024) continue;
    for (const ext of ['.br', '.gz']) if (!fs.existsSync(full + ext)) missing.push(file + ext);
  }
}
if (missing.length) failures.push(`precompressed files missing: ${[...new Set(missing)].slice(0, 5).join(', ')}`);

if (json) {
  console.log(
    JSON.stringify({
      templateKb,
      loginLimitKb: loginLimit,
      screens: results.map(({ name, kb, budgetKb, files }) => ({ name, kb, budgetKb, files: files.length })),
      failures,
    }),
  );
} else {
  console.log(`\nJavaScript each screen loads before it paints (gzip, level 9):`);
  console.log(`  ${'bare Vite + React template'.padEnd(28)} ${templateKb.toFixed(1).padStart(6)} kB`);
  for (const screen of results) {
    const limit = screen === login ? loginLimit : screen.budgetKb;
    const mark = screen.kb > limit ? 'OVER' : 'ok';
    console.log(
      `  ${screen.name.padEnd(28)} ${screen.kb.toFixed(1).padStart(6)} kB  (budget ${limit.toFixed(0)} kB, ${screen.files.length} files) ${mark}`,
    );
  }
  if (failures.length) {
    console.error(`\nClient budget exceeded:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    console.error('See docs/performance.md (client weight) for what each screen may load.');
  } else {
    console.log('\nClient budget met.');
  }
}
process.exitCode = failures.length ? 1 : 0;
