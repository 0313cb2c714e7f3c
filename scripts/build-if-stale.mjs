// `npm start` and `npm run demo`: builds the client only when its sources changed since the last build
// (newest modification time under client/, shared/ and the build's config vs dist/client/index.html), then
// always compiles the server (esbuild, about a second).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/client/index.html');
const sources = ['client', 'shared', 'vite.config.ts', 'scripts/vite-precompress.mjs', 'package-lock.json'];

function newest(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(path.join(file, entry)));
  }
  return latest;
}

export function clientBuildIsCurrent() {
  const built = fs.statSync(builtIndex, { throwIfNoEntry: false });
  if (!built) return false;
  return sources.every((source) => newest(path.join(root, source)) <= built.mtimeMs);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (clientBuildIsCurrent()) {
    console.log('client build is current (dist/client), not rebuilt');
  } else {
    console.log('building the client...');
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'inherit' });
}
