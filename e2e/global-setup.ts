import { execFileSync } from 'node:child_process';
import { SEEDED_DATA_DIR } from './demo-server';

/**
 * Before the browser tests: the server they start is the compiled one, built from the current source (the
 * client only when its sources changed since the last build, as `npm start` does; only the server when
 * CLIENT_DIST names another client build), and the demo business is seeded once into SEEDED_DATA_DIR. Each
 * worker then starts on a copy of its own (e2e/demo-server.ts), so no two workers share data.
 */
export default function globalSetup() {
  const build = process.env.CLIENT_DIST ? 'scripts/build-server.mjs' : 'scripts/build-if-stale.mjs';
  execFileSync(process.execPath, [build], { stdio: 'inherit' });

  const started = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, ['--import', 'tsx', 'e2e/seed-demo.ts', SEEDED_DATA_DIR], {
    stdio: 'inherit',
    env,
  });
  console.log(
    `Demo business seeded once in ${((performance.now() - started) / 1000).toFixed(1)} s (${SEEDED_DATA_DIR})`,
  );
}
