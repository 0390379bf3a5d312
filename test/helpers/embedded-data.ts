/**
 * An embedded database in a folder (DATA_DIR/pglite) with realistic rows: an administrator with a session,
 * a product, a range, a bench with records and an issued report (binary PDF), a released delivery with its unit's certificate, for the backup, restore and
 * move-to-postgres tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { issueReport } from '../../src/server/modules/reports/issue';
import type { TestApp } from './app';
import { releasedDelivery } from './deliveries';
import { unitWithRecords } from './reports';

export function tmpDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'trc-ops-'));
}

/** The app on a database (a folder's PGlite or PostgreSQL), shaped like the TestApp the helpers take. */
export async function appOn(database: Database, dataDir: string): Promise<{ t: TestApp; close(): Promise<void> }> {
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app: FastifyInstance = await buildApp({ config, database, logger: false });
  await app.ready();
  const t = { app, config, testDb: { database, drop: async () => undefined } } as TestApp;
  return { t, close: () => app.close() };
}

/** Fills DATA_DIR's embedded database; returns the serial that has a report. */
export async function seedEmbedded(dataDir: string): Promise<{ serial: string }> {
  const database = await openDatabase({ dataDir });
  try {
    await migrate(database);
    const { t, close } = await appOn(database, dataDir);
    try {
      const u = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
      const r = await issueReport(database.db, { serial: u.serial, language: 'en', publicBaseUrl: t.config.publicBaseUrl });
      if (r.status !== 'issued') throw new Error(`seed: report ${r.status}`);
      // A released delivery: its unit and its certificate name each other (a cycle of foreign keys).
      await releasedDelivery(t, { units: 1 });
      return { serial: u.serial };
    } finally {
      await close();
    }
  } finally {
    await database.close();
  }
}
