// @engine-independent: the embedded database's cluster file, which only PGlite reads (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * The embedded database's cluster made at build time (src/server/db/cluster-template.ts): read only under
 * the PGlite version that made it, and a database opened from it has every migration without running them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/client';
import { readClusterTemplate, writeClusterTemplate } from '../src/server/db/cluster-template';
import { listMigrations, migrate } from '../src/server/db/migrate';
import { makeMigratedCluster } from '../src/server/db/migrated-cluster';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-cluster-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the cluster template', () => {
  it('is read back under the PGlite version that wrote it, and refused under another or when absent', async () => {
    const file = path.join(dir, 'cluster.tgz');
    expect(readClusterTemplate(file)).toBeUndefined();
    writeClusterTemplate(await makeMigratedCluster(), file);
    const blob = readClusterTemplate(file);
    expect(blob?.size).toBe(fs.statSync(file).size);
    fs.writeFileSync(`${file}.version`, '0.0.1\n');
    expect(readClusterTemplate(file)).toBeUndefined();
  });

  it('gives a new data directory every migration, so that migrate() finds nothing to apply', async () => {
    const file = path.join(dir, 'cluster2.tgz');
    writeClusterTemplate(await makeMigratedCluster(), file);
    const dataDir = path.join(dir, 'data');
    const database = await openDatabase({ dataDir, loadDataDir: readClusterTemplate(file) });
    try {
      const applied = await database.withSession((s) => s.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations'));
      expect(Number(applied[0]!.n)).toBe(listMigrations().length);
      expect(await migrate(database)).toEqual([]);
    } finally {
      await database.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
  });
});
