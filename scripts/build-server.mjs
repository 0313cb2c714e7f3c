// Compiles the server (server/main.ts for `npm start`, server/demo.ts for `npm run demo`) into one ES module
// each in dist/server, with npm packages left as imports. The migrations are copied beside the bundle,
// where server/db/client.ts looks for them (a `migrations` folder next to the running module).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist/server');

fs.rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts', 'server/demo.ts'],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  tsconfig: path.join(root, 'tsconfig.json'),
});
fs.cpSync(path.join(root, 'server/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
fs.writeFileSync(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
console.log(`server built into ${path.relative(root, outdir)}`);
