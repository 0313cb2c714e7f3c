// The multi-instance test (server/test/cluster/cluster.test.ts) puts Debian's HAProxy in front of the app
// instances; nothing is ever downloaded from elsewhere. On a fresh Debian machine (as root) this installs the
// `haproxy` package with apt-get, as scripts/ensure-chromium.mjs does for the browser tests.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

if (fs.existsSync(HAPROXY)) process.exit(0);

if (process.getuid?.() !== 0) {
  console.error(
    `HAProxy is missing at ${HAPROXY} (the multi-instance test needs it). Install Debian's package: sudo apt-get install -y haproxy`,
  );
  process.exit(1);
}
console.log('Installing Debian haproxy for the multi-instance test...');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execSync('apt-get update -qq', { stdio: 'inherit', env });
execSync('apt-get install -y -qq --no-install-recommends haproxy', { stdio: 'inherit', env });
if (!fs.existsSync(HAPROXY)) {
  console.error('HAProxy did not install.');
  process.exit(1);
}
