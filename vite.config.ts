import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
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

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), precompress(), moduleGraph()],
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
        // - `icons`: the other icons, a few hundred bytes each, which every signed-in screen draws some of.
        // Everything else is split where it is imported, so each screen loads only what it uses
        // (docs/decisions/017-performance.md).
        codeSplitting: {
          groups: [
            { name: 'react', test: REACT, priority: 4 },
            { name: 'app', tags: ['$initial'], test: (id) => id !== ENTRY, priority: 3 },
            { name: 'controls', test: (id) => graph.controls.has(id), priority: 2 },
            { name: 'table', test: (id) => TABLE.test(id), priority: 2 },
            { name: 'shell', test: (id) => graph.shell.has(id), priority: 1 },
            { name: 'icons', test: ICON, priority: 0 },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
