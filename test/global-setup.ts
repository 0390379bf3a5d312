/**
 * Once per Vitest run: a migrated template database that test/helpers/database.ts copies for each test
 * file instead of making and migrating an empty one (see there). The test processes inherit the
 * environment variables set here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { writeClusterTemplate } from '../src/server/db/cluster-template';
import { createPostgresTemplate, PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV, writePgliteTemplate } from './helpers/database';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-template-'));
  const file = path.join(dir, 'migrated.pglite');
  const dump = await writePgliteTemplate(file);
  process.env[PGLITE_TEMPLATE_ENV] = file;
  // The servers some tests start from source (helpers/server-process.ts) and the tests that open a new
  // DATA_DIR start from the migrated cluster, as a built server does, instead of running initdb and every
  // migration: a server start took 11 s, and takes 5.3 s, on a quiet 2-core machine. Written anew each
  // run, so that it holds this run's migrations; the file is the one a source run reads
  // (src/server/db/cluster-template.ts).
  writeClusterTemplate(zlib.gzipSync(dump, { level: 1 }));
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = serverUrl ? await createPostgresTemplate(serverUrl) : undefined;
  if (template) process.env[POSTGRES_TEMPLATE_ENV] = template.name;
  return async () => {
    await template?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
