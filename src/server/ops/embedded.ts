/**
 * The embedded database's files (PGlite under DATA_DIR/pglite) from outside the server: who holds them,
 * and opening them for a backup, a restore or a move to PostgreSQL.
 *
 * PGlite is one process's database: two processes opening the same folder would corrupt it, and a copy of
 * the files taken while the server writes is not consistent. So the server leaves DATA_DIR/server.lock
 * (its pid) while it runs, and these commands refuse to touch the folder while that process lives.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { createPglite } from '../db/client';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files';

export const LOCK_FILE = 'server.lock';

export class OpsError extends Error {
  override name = 'OpsError';
}

export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Writes DATA_DIR/server.lock for this process; the returned function removes it. */
export function holdDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dataDir, LOCK_FILE);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }), {
    mode: PRIVATE_FILE_MODE,
  });
  return () => {
    try {
      const held = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number };
      if (held.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}

/** The pid of a live server holding the folder, or null (no lock, or left by a process that is gone). */
export function serverHolding(dataDir: string): number | null {
  let held: { pid?: number; host?: string };
  try {
    held = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (!held.pid) return null;
  // Written on another machine or container sharing the folder: this one cannot tell whether it lives.
  if (held.host && held.host !== os.hostname()) return held.pid;
  try {
    process.kill(held.pid, 0);
    return held.pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? held.pid : null;
  }
}

export function refuseWhileServing(dataDir: string, what: string): void {
  const pid = serverHolding(dataDir);
  if (pid !== null) {
    throw new OpsError(
      `the server (pid ${pid}) is running on ${dataDir}; stop it first (e.g. systemctl stop test-report-center, ` +
        `docker compose stop app, or Ctrl+C), then ${what}. The embedded database cannot be copied consistently ` +
        `while its server writes to it. (If no server runs, remove ${path.join(dataDir, LOCK_FILE)}.)`,
    );
  }
}

export function openPgliteDir(dir: string, extra: Partial<PGliteOptions> = {}): Promise<PGlite> {
  return createPglite(dir, extra);
}

/** Row counts of every table in the public schema, for the manifest and the checks after a copy. */
export async function tableCounts(query: (text: string) => Promise<Array<Record<string, unknown>>>): Promise<Record<string, number>> {
  const tables = await query(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const counts: Record<string, number> = {};
  for (const { t } of tables) {
    const [row] = await query(`SELECT count(*) AS n FROM "${String(t).replaceAll('"', '""')}"`);
    counts[String(t)] = Number(row?.n ?? 0);
  }
  return counts;
}
