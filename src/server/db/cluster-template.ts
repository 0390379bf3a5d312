/**
 * The embedded database's cluster, made once when the server is built (scripts/build-server.mjs runs
 * src/server/cli/cluster-template.ts) and copied into a new DATA_DIR at its first start. Creating a
 * cluster with PGlite runs initdb in a second and a third WebAssembly instance, which took the first
 * start to 800+ MB; loading the made cluster costs a fraction of that
 * (docs/decisions/0019-embedded-memory.md). The file is stamped with the PGlite version that made it
 * and ignored under another, or when absent (running from source): then initdb runs as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLUSTER_TEMPLATE_FILE = path.join(here, 'cluster-template.tgz');

/** The installed PGlite's version (its package.json is not among its exports: found from its entry point). */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The made cluster, if there is one for the PGlite installed. */
export function readClusterTemplate(file = CLUSTER_TEMPLATE_FILE): Blob | undefined {
  try {
    if (fs.readFileSync(`${file}.version`, 'utf8').trim() !== pgliteVersion()) return undefined;
    return new Blob([fs.readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cluster dump `data` (PGlite's dumpDataDir, gzip) with its version stamp, each file whole by a
 * rename: a server starting meanwhile (or a second test run writing the same file) reads the old file or the
 * new one, never part of one.
 */
export function writeClusterTemplate(data: Uint8Array, file = CLUSTER_TEMPLATE_FILE): void {
  const whole = (target: string, content: Uint8Array | string) => {
    const part = `${target}.${process.pid}.part`;
    fs.writeFileSync(part, content);
    fs.renameSync(part, target);
  };
  whole(file, data);
  whole(`${file}.version`, `${pgliteVersion()}\n`);
}
