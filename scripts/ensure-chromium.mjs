// Browser tests drive Debian's Chromium through playwright-core; no browser is ever downloaded.
// On a fresh Debian machine (as root) this installs the `chromium` package with apt-get.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (fs.existsSync(CHROMIUM)) process.exit(0);

if (process.getuid?.() !== 0) {
  console.error(`Chromium is missing at ${CHROMIUM}. Install Debian's package: sudo apt-get install -y chromium`);
  process.exit(1);
}
console.log('Installing Debian chromium for the browser tests...');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execSync('apt-get update -qq', { stdio: 'inherit', env });
execSync('apt-get install -y -qq chromium fonts-liberation', { stdio: 'inherit', env });
if (!fs.existsSync(CHROMIUM)) {
  console.error('Chromium did not install.');
  process.exit(1);
}
