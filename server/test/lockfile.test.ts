import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` (what CI runs) installs exactly package-lock.json and refuses a lock file that is out of step with
 * package.json, including one that lacks the optional packages of other platforms (a lock regenerated on one
 * machine with node_modules present can drop them). These checks catch both before CI does.
 */
type LockEntry = {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Where Node would find `name` from the package installed at `from` (its own node_modules, then upwards). */
function resolve(from: string, name: string): LockEntry | undefined {
  let dir = from;
  for (;;) {
    const entry = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry) return entry;
    if (!dir) return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}

describe('package-lock.json', () => {
  it('declares the same dependencies as package.json', () => {
    expect(lock.lockfileVersion).toBe(3);
    const locked = lock.packages[''];
    expect(locked.dependencies ?? {}).toEqual(pkg.dependencies ?? {});
    expect(locked.devDependencies ?? {}).toEqual(pkg.devDependencies ?? {});
  });

  it('locks every optional (platform) package of every locked package, for every platform', () => {
    const missing: string[] = [];
    for (const [at, entry] of Object.entries(lock.packages)) {
      for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
        if (!resolve(at, name)) missing.push(`${at || 'package.json'} -> ${name}@${range}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('locks every dependency of every locked package', () => {
    const missing: string[] = [];
    for (const [at, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys({ ...entry.dependencies, ...(at === '' ? entry.devDependencies : {}) })) {
        if (!resolve(at, name)) missing.push(`${at || 'package.json'} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
