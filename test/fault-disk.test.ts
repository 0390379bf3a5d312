// @engine-independent: a full DATA_DIR, where only the embedded database and the outbox write (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * A full disk under DATA_DIR. DATA_DIR is on a small tmpfs of the test's own (mount needs root, or
 * CAP_SYS_ADMIN: CI runs as root; elsewhere the test says why it skips), filled up with a file until the
 * kernel answers ENOSPC — a real full filesystem, not a simulated error.
 *  - The embedded database: a CSV import while the disk is full is answered 503 UNAVAILABLE with a log line
 *    (PostgreSQL's "could not extend file … No space left on device", SQLSTATE 53100); once the space is
 *    back the same process imports again, without a restart, and after a clean stop the database holds
 *    exactly the import that succeeded, nothing of those that failed. With no room at all the upload's
 *    spooled file (DATA_DIR/spool) is what cannot be written first: answered the same way.
 *  - The .eml fallback (no SMTP_URL): a message that cannot be written fails as a temporary error (the
 *    worker retries it) and leaves neither a cut-off .eml nor a .partial file; once the space is back it
 *    is written whole.
 * PGlite only (the database under DATA_DIR); skipped on the PostgreSQL pass.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/server/db/client';
import type { OutboxRow } from '../src/server/db/schema/index';
import { classifySendError } from '../src/server/mail/retry-policy';
import { createFileTransport } from '../src/server/mail/transports';
import { writeMachineCsv } from './helpers/machine-data-csv';
import { startServer, uploadFile, type ServerProcess } from './helpers/server-process';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const mnt = onPostgres ? path.join(os.tmpdir(), 'trc-disk-unused') : fs.mkdtempSync(path.join(os.tmpdir(), 'trc-disk-'));
const mounted = onPostgres ? undefined : spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', mnt], { encoding: 'utf8' });
const why =
  !mounted || mounted.status === 0 ? undefined : `cannot mount a tmpfs (needs root): ${(mounted.stderr || String(mounted.error)).trim()}`;
const filler = path.join(mnt, 'filler');

/** Writes zeros until the filesystem is full (ENOSPC), then frees `leave` bytes of it; returns the bytes written. */
function fillDisk(leave = 0): number {
  const fd = fs.openSync(filler, 'a');
  const chunk = Buffer.alloc(1024 * 1024);
  let written = 0;
  try {
    for (;;) written += fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  // The last partial block too.
  const fd2 = fs.openSync(filler, 'a');
  try {
    for (;;) written += fs.writeSync(fd2, Buffer.alloc(512));
  } catch {
    /* full */
  } finally {
    fs.closeSync(fd2);
  }
  if (leave > 0) fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - leave));
  return written;
}
const freeSpace = () => fs.rmSync(filler, { force: true });

afterAll(() => {
  if (mounted?.status === 0) execFileSync('umount', ['-l', mnt]);
  fs.rmSync(mnt, { recursive: true, force: true });
});

describe.skipIf(onPostgres || why)('a full disk under DATA_DIR', () => {
  const dataDir = path.join(mnt, 'data');
  const csv = path.join(os.tmpdir(), `trc-disk-${randomUUID()}.csv`);
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    await writeMachineCsv(csv, 3_000, 5);
    server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
  }, 300_000);

  afterAll(async () => {
    freeSpace();
    await server?.stop();
    fs.rmSync(csv, { force: true });
  });

  it('answers 503 with a log line while the embedded database cannot write, and imports again once space is back', async () => {
    const s = server!;
    const importUrl = `${s.url}/api/v1/machine-data/import`;
    expect(fillDisk()).toBeGreaterThan(0);
    // An upload is spooled under DATA_DIR too (DATA_DIR/spool): with no room at all it is that write
    // that fails, answered the same way.
    const spooled = await uploadFile(importUrl, s.cookie, csv);
    expect(spooled.status).toBe(503);
    expect(JSON.parse(spooled.body).error).toMatchObject({ status: 'UNAVAILABLE', key: 'errors.unavailable' });
    // The server's log reaches this process through a pipe, possibly after the answer: wait for the line.
    await expect
      .poll(() => s.output(), { timeout: 10_000 })
      .toMatch(/"code":"ENOSPC"[^\n]*"msg":"service unavailable: database or storage"/);
    // Room for the spooled file (removed after each request) and not for the database's writes.
    freeSpace();
    fillDisk(fs.statSync(csv).size + 256 * 1024);
    for (let i = 0; i < 2; i++) {
      const res = await uploadFile(importUrl, s.cookie, csv);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).error).toMatchObject({ status: 'UNAVAILABLE', key: 'errors.unavailable' });
    }
    await expect
      .poll(() => s.output(), { timeout: 10_000 })
      .toMatch(/No space left on device[^\n]*"msg":"service unavailable: database or storage"/);

    freeSpace();
    const res = await uploadFile(importUrl, s.cookie, csv);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data).toMatchObject({ rows: 3_000, stored: 3_000, valid: true });
    expect(s.child.exitCode).toBeNull();

    await s.stop();
    server = undefined;
    const database = await openDatabase({ dataDir });
    try {
      const [counts] = rowsOf<{ records: number; imports: number }>(
        await database.db.execute(sql`SELECT (SELECT count(*)::int FROM test_records) AS records,
          (SELECT count(*)::int FROM audit_log WHERE entity = 'test-record' AND action = 'import') AS imports`),
      );
      expect(counts).toEqual({ records: 3_000, imports: 1 });
    } finally {
      await database.close();
    }
  }, 300_000);

  it('leaves no cut-off .eml when the fallback cannot write a message, and writes it whole once space is back', async () => {
    const outbox = path.join(dataDir, 'outbox-disk-test');
    fs.mkdirSync(outbox, { recursive: true });
    const transport = createFileTransport(outbox, 'Test Report Center <no-reply@example.com>', { info() {}, warn() {}, error() {} });
    const row = {
      id: randomUUID(),
      kind: 'test-report',
      recipient: 'visitor@example.com',
      language: 'en',
      subject: 'Test report',
      textBody: 'Attached.',
      htmlBody: null,
      // Larger than what is left, so that the write starts and is cut off.
      attachments: [
        { filename: 'report.pdf', contentType: 'application/pdf', contentBase64: Buffer.alloc(2 * 1024 * 1024, 7).toString('base64') },
      ],
      createdAt: new Date(),
    } as unknown as OutboxRow;

    fillDisk();
    fs.rmSync(filler, { force: true });
    // Leave a little room: the first bytes are written before the disk runs out.
    const fd = fs.openSync(filler, 'a');
    try {
      const stat = fs.statfsSync(mnt);
      fs.writeSync(fd, Buffer.alloc(Math.max(0, stat.bavail * stat.bsize - 64 * 1024)));
    } finally {
      fs.closeSync(fd);
    }
    const err = await transport.send(row).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as NodeJS.ErrnoException | undefined)?.code).toBe('ENOSPC');
    expect(classifySendError(err).permanent).toBe(false); // the worker retries it
    expect(fs.readdirSync(outbox)).toEqual([]);

    freeSpace();
    const sent = await transport.send(row);
    expect(fs.readdirSync(outbox)).toEqual([path.basename(sent.location!)]);
    const parsed = await PostalMime.parse(fs.readFileSync(sent.location!));
    expect(parsed.subject).toBe('Test report');
    expect(Buffer.from(parsed.attachments[0]!.content as ArrayBuffer).equals(Buffer.alloc(2 * 1024 * 1024, 7))).toBe(true);
    await transport.close();
  });
});

it.runIf(!onPostgres && why)('cannot fill a disk of its own here', () => {
  console.warn(`fault-disk: skipped, ${why}`);
});
