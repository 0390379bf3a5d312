#!/usr/bin/env node
// Builds the server into plain JavaScript under dist/server, so production runs `node dist/server/main.js`
// without tsx. Each entry is one esbuild bundle of our own code (src/server, src/shared, the i18n JSON);
// packages stay external and are loaded from node_modules (production dependencies only).
//
// Files that locate things next to themselves through import.meta.url (the migrations folder, dist/web)
// get a URL rewritten to where the file would sit in dist/server if it were not bundled, so dist/server
// mirrors src/server and the same relative paths keep working. The SQL migrations are copied alongside, and
// the embedded database's migrated cluster is made next to them.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcServer = path.join(root, 'src/server');
const outServer = path.join(root, 'dist/server');
export const ENTRIES = [
  'main.ts',
  'cli/cluster-template.ts',
  // the report pool's worker thread, loaded by path from main.js (modules/reports/render-job.ts)
  'modules/reports/render-worker.ts',
  'cli/migrate.ts',
  'cli/admin.ts',
  'cli/backup.ts',
  'cli/restore.ts',
  'cli/move-to-postgres.ts',
];

/** import.meta.url of a bundled source file, as the URL of its mirror in dist/server. */
function mirrorImportMetaUrl(outFile) {
  return {
    name: 'mirror-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /src[\\/](server|shared)[\\/].*\.ts$/ }, async (args) => {
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const mirror = path.join(outServer, path.relative(srcServer, args.path)).replace(/\.ts$/, '.js');
        const rel = path.relative(path.dirname(outFile), mirror).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

export async function buildServer() {
  fs.rmSync(outServer, { recursive: true, force: true });
  for (const entry of ENTRIES) {
    const outfile = path.join(outServer, entry.replace(/\.ts$/, '.js'));
    await build({
      absWorkingDir: root,
      entryPoints: [path.join(srcServer, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
      plugins: [mirrorImportMetaUrl(outfile)],
    });
  }
  fs.cpSync(path.join(srcServer, 'db/migrations'), path.join(outServer, 'db/migrations'), { recursive: true });
  // The embedded database's cluster with every migration applied, for a new DATA_DIR to start from
  // (src/server/db/cluster-template.ts): made here, in a process of its own, so that no server pays for initdb.
  const made = spawnSync(process.execPath, [path.join(outServer, 'cli/cluster-template.js')], { cwd: root, stdio: 'inherit' });
  if (made.status !== 0) throw new Error('making the embedded cluster template failed');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log('Built the server into dist/server.');
}
