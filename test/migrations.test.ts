import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/server/db/client';
import { listMigrations, migrate, pendingMigrations } from '../src/server/db/migrate';
import { createEmptyPostgresDatabase, createTestDatabase, type TestDatabase } from './helpers/database';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('applies every migration in the repo once', async () => {
    expect(await pendingMigrations(t.database)).toEqual([]);
    expect(await migrate(t.database)).toEqual([]);
  });

  it('applies each migration once when two callers start at once on one embedded database', async () => {
    const fresh = await openDatabase({});
    try {
      const applied = await Promise.all([migrate(fresh), migrate(fresh)]);
      expect(applied.flat().sort()).toEqual(
        listMigrations()
          .map((m) => m.name)
          .sort(),
      );
    } finally {
      await fresh.close();
    }
  });

  // Separate instances (separate connections) only exist on PostgreSQL; PGlite allows one connection.
  it.skipIf(!process.env.TEST_DATABASE_URL)('lets several instances migrate at once without racing (PostgreSQL)', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const fresh = await createEmptyPostgresDatabase(serverUrl, 'trc_mig');
    try {
      const instances: Database[] = await Promise.all([1, 2, 3].map(() => openDatabase({ url: fresh.url, maxConnections: 2 })));
      const applied = await Promise.all(instances.map((d) => migrate(d)));
      expect(applied.flat().sort()).toEqual(
        listMigrations()
          .map((m) => m.name)
          .sort(),
      );
      await Promise.all(instances.map((d) => d.close()));
    } finally {
      await fresh.drop();
    }
  });
});
