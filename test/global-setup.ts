/**
 * Once per Vitest run: a migrated template database that test/helpers/database.ts copies for each test
 * file instead of making and migrating an empty one (see there). The test processes inherit the
 * environment variables set here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresTemplate, PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV, writePgliteTemplate } from './helpers/database';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-template-'));
  const file = path.join(dir, 'migrated.pglite');
  await writePgliteTemplate(file);
  process.env[PGLITE_TEMPLATE_ENV] = file;
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = serverUrl ? await createPostgresTemplate(serverUrl) : undefined;
  if (template) process.env[POSTGRES_TEMPLATE_ENV] = template.name;
  return async () => {
    await template?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
