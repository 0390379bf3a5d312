/** The real app on a fresh database, for API tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  testDb: TestDatabase;
  close(): Promise<void>;
}

/** `extend` registers extra routes (e.g. a route that throws) before the app is made ready. */
export async function buildTestApp(
  env: Record<string, string> = {},
  extend?: (app: FastifyInstance) => void | Promise<void>,
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', ...env });
  const testDb = await createTestDatabase();
  const app = await buildApp({ config, database: testDb.database, logger: false });
  if (extend) await extend(app);
  await app.ready();
  return {
    app,
    config,
    testDb,
    close: async () => {
      await app.close();
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
