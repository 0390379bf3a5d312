/**
 * The real app serving a web build written to a temporary folder: the files a test names, relative to the
 * build's root, beside a minimal index.html (the app's page). Tests of the static files, the prerendered
 * visitor page and robots.txt share it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { createTestDatabase } from './database';

export const APP_PAGE = '<!doctype html><title>Test Report Center</title><div id="app"></div>';

export interface WebBuildApp {
  app: FastifyInstance;
  /** the build's root, for a test that rebuilds while the app runs */
  dir: string;
  close(): Promise<void>;
}

export function writeBuildFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export async function appWithWebBuild(files: Record<string, string | Buffer>): Promise<WebBuildApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-web-build-'));
  writeBuildFiles(dir, { 'index.html': APP_PAGE, ...files });
  const db = await createTestDatabase();
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database: db.database, logger: false, webDist: dir });
  await app.ready();
  return {
    app,
    dir,
    close: async () => {
      await app.close();
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
