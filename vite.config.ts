import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './scripts/vite-precompress.mjs';

/** Lazy chunks whose dependencies are not preloaded with them (see build.modulePreload below). */
const LOAD_WHEN_NEEDED = /(^|\/)line-availability-[\w-]+\.js$/;

const CLIENT = path.resolve(import.meta.dirname, 'client/src');
const ENTRY = path.join(CLIENT, 'main.tsx');
const SHELL = path.join(CLIENT, 'app/layout/app-layout.tsx');
const ROUTES = path.join(CLIENT, 'app/routes/');
/** A part of the app used by this many screens or more goes with the shell (see moduleGraph). */
const SHARED_BY = 8;
const REACT = /node_modules[\\/](react|react-dom|scheduler)[\\/]/;
const ICON = /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;
/** Radix's small shared internals, which nearly every Radix part a screen uses needs (see `radix` below). */
const RADIX_CORE =
  /node_modules[\\/]@radix-ui[\\/](primitive|react-primitive|react-context|react-use-layout-effect|react-use-effect-event|react-use-controllable-state|react-id|react-direction|react-use-callback-ref|react-presence)[\\/]/;
/** The list table (rows, phone cards, sticky columns): every list screen's, not the forms', so not the shell's. */
const TABLE = /client[\\/]src[\\/]components[\\/]ui[\\/](data-table|pagination)\.tsx$/;

/**
 * The modules the first page needs (the entry's static imports, recursively) and those the signed-in shell
 * adds to them (app-layout.tsx's), found once the module graph is complete and read by the chunk groups below.
 */
const graph = { initial: new Set<string>(), shell: new Set<string>(), controls: new Set<string>() };

/** The pages shown without the signed-in shell (pay link, checkout, ...): router.tsx declares them one by one. */
const publicPages = () =>
  [
    ...fs
      .readFileSync(path.join(CLIENT, 'app/router.tsx'), 'utf8')
      .matchAll(/const \w+ = lazy\(\(\) => import\('\.\/routes\/([\w-]+)'\)\)/g),
  ].map(([, file]) => path.join(ROUTES, `${file}.tsx`));

function moduleGraph(): Plugin {
  return {
    name: 'adcrm:module-graph',
    apply: 'build',
    buildEnd() {
      const reach = (from: string, skip: Set<string>) => {
        const found = new Set<string>();
        const queue = [from];
        while (queue.length) {
          const id = queue.pop()!;
          // Icons are grouped on their own (below); lucide-react's index re-exports all 1,600 of them.
          if (found.has(id) || skip.has(id) || ICON.test(id)) continue;
          found.add(id);
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return found;
      };
      graph.initial = reach(ENTRY, new Set());
      graph.shell = reach(SHELL, graph.initial);
      if (graph.initial.size < 10 || graph.shell.size < 10) {
        this.error(`vite.config.ts: the module graph of ${ENTRY} or ${SHELL} was not found`);
      }
      // The app's own small parts that many screens share (cards, page headers, the vocabularies) go with
      // the shell too, when they bring no library of their own: one file instead of one per part.
      const uses = new Map<string, number>();
      for (const id of this.getModuleIds()) {
        if (!id.startsWith(ROUTES)) continue;
        for (const used of reach(id, graph.initial)) uses.set(used, (uses.get(used) ?? 0) + 1);
      }
      for (const [id, screens] of uses) {
        if (screens < SHARED_BY || graph.shell.has(id) || id.includes('node_modules') || id.startsWith(ROUTES))
          continue;
        const needs = reach(id, new Set([...graph.initial, ...graph.shell]));
        if ([...needs].every((dep) => !dep.includes('node_modules'))) for (const dep of needs) graph.shell.add(dep);
      }
      // Of those, what the public pages use too (the button, the card...) is a file of its own: a visitor on a
      // pay link loads it, not the shell.
      const publicUse = new Set(publicPages().flatMap((page) => [...reach(page, graph.initial)]));
      graph.controls = new Set([...graph.shell].filter((id) => publicUse.has(id)));
    },
  };
}

/**
 * Writes client/src/first-load.ts into index.html as an inline script (docs/decisions/046-dashboard-first-paint.md):
 * it starts `/api/auth/me` and, on the dashboard, the shell's and the dashboard's scripts and the dashboard's
 * data before the module scripts have arrived. The scripts it preloads are those of the shell and the dashboard
 * route with their static imports, less what index.html loads already. The server allows the script by its hash.
 */
function firstLoadScript(): Plugin {
  const DASHBOARD = path.join(ROUTES, 'dashboard.tsx');
  return {
    name: 'adcrm:first-load',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (roots: typeof chunks) => {
          const files = new Set<string>();
          const queue = roots.map((chunk) => chunk.fileName);
          while (queue.length) {
            const file = queue.pop()!;
            if (files.has(file)) continue;
            files.add(file);
            queue.push(...(byFile.get(file)?.imports ?? []));
          }
          return files;
        };
        const loaded = closure(chunks.filter((chunk) => chunk.isEntry));
        const signedIn = chunks.filter(
          (chunk) => chunk.moduleIds.includes(SHELL) || chunk.moduleIds.includes(DASHBOARD),
        );
        if (signedIn.length !== 2) throw new Error('vite.config.ts: the shell or the dashboard chunk was not found');
        const preload = [...closure(signedIn)].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
        const result = await esbuild({
          stdin: {
            contents: `import { startFirstLoad } from './first-load';\nstartFirstLoad(${JSON.stringify(preload)});`,
            resolveDir: CLIENT,
            loader: 'ts',
          },
          bundle: true,
          write: false,
          format: 'iife',
          minify: true,
          target: 'es2020',
          logLevel: 'warning',
        });
        return [{ tag: 'script', children: result.outputFiles[0].text.trim(), injectTo: 'head' }];
      },
    },
  };
}

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), precompress(), moduleGraph(), firstLoadScript()],
  resolve: {
    alias: {
      '@shared': path.resolve(import.meta.dirname, 'shared'),
      '@': path.resolve(import.meta.dirname, 'client/src'),
    },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    sourcemap: false,
    // scripts/check-budget.mjs walks it to add up what each screen loads.
    manifest: true,
    modulePreload: {
      // A part a screen loads lazily once it is needed (the contract form's availability line) fetches its
      // modules then; a preload list of its dependencies would weigh on the screen's first load instead.
      resolveDependencies: (filename, deps) => (LOAD_WHEN_NEEDED.test(filename) ? [] : deps),
    },
    rolldownOptions: {
      output: {
        // Few, larger files where a page needs them all anyway: over HTTP/1.1 a browser fetches six at a time,
        // and each response carries about 1 kB of headers (docs/performance.md, "Client weight").
        // - React in a long-lived chunk of its own: an app release does not invalidate the browser's copy.
        // - `app`: what the first page needs (the entry's static imports, the login screen among them) stays in the
        //   entry file: without this group, the groups below would take the parts of it they share into theirs.
        // - `shell`: what the signed-in shell adds (layout, navigation) and the app's small parts most screens share.
        // - `controls`: those of them the public pages (pay link, checkout, ...) use too (button, card, ...).
        // - `table`: the list table, which most screens but not the contract form use (kept out of its first load).
        // - `radix`: Radix's small internals (context, primitive, id, presence, ...) that its parts share: split by
        //   which screens use which parts, they made up to ten files of a few hundred bytes each (since the contract
        //   form's select loads on first use: lazy-select.tsx); together, 3.2 kB gzip in one file. It adds 2.7 kB
        //   to the customers, packages and checkout screens (a label or a switch needs only part of it) and takes
        //   0.5-0.8 kB and three files off every screen with a select or a dialog.
        // - `icons`: the other icons, a few hundred bytes each, which every signed-in screen draws some of.
        // Everything else is split where it is imported, so each screen loads only what it uses
        // (docs/decisions/017-performance.md).
        codeSplitting: {
          groups: [
            { name: 'react', test: REACT, priority: 4 },
            { name: 'app', tags: ['$initial'], test: (id) => id !== ENTRY, priority: 3 },
            { name: 'controls', test: (id) => graph.controls.has(id), priority: 2 },
            { name: 'table', test: (id) => TABLE.test(id), priority: 2 },
            { name: 'radix', test: RADIX_CORE, priority: 2 },
            { name: 'shell', test: (id) => graph.shell.has(id), priority: 1 },
            { name: 'icons', test: ICON, priority: 0 },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
