#!/usr/bin/env node
// The registry this project installs from serves only the platform builds it needs, so npm (11.16+) leaves
// other platforms' optional binaries (rollup's) out of package-lock.json and then `npm ci` rejects that
// very lock (npm/cli#9846). This adds inert entries for them — version, os, cpu and libc taken from the
// package name — so `npm ci` accepts the lock and skips them on this platform. Run after `npm install`
// changes the lock; `npm run lint` checks that nothing is missing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = path.join(root, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const checkOnly = process.argv.includes('--check');

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'sunos', 'aix', 'netbsd'];
const CPU = {
  'arm-eabi': 'arm',
  arm: 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};

/** `@rollup/rollup-linux-arm64-musl` → { os: linux, cpu: arm64, libc: musl }; null when the name says no platform. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpuPart = parts.find((p, i) => CPU[p] || CPU[`${p}-${parts[i + 1]}`]);
  if (!os || !cpuPart) return null;
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return { os: [os], cpu: [CPU[cpuPart]], ...(libc ? { libc: [libc] } : {}) };
}

const added = [];
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const here = `${key ? `${key}/` : ''}node_modules/${dep}`;
    if (lock.packages[here] || lock.packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    added.push(dep);
    lock.packages[`node_modules/${dep}`] = { version, ...platform, optional: true };
  }
}

if (checkOnly) {
  if (added.length) {
    console.error(
      `package-lock.json lacks ${added.length} optional platform packages (${added[0]}, …): run node scripts/complete-lockfile.mjs`,
    );
    process.exit(1);
  }
} else if (added.length) {
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`package-lock.json: added ${added.length} inert optional platform entries`);
}
