// @engine-independent: file modes under DATA_DIR, which the server sets the same whichever database it uses (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * Everything under DATA_DIR is its owner's only (directories 0700, files 0600) whatever the umask: the
 * embedded database's own files (the signing key and password hashes are in them), the .eml outbox and
 * backup archives, wherever these are written. A server started under umask 022, as `npm start` from a
 * shell is, writes nothing another user can read, and repairs what an older version left open. Where the
 * tests run as root, a second user (`nobody`) tries to read and write every one of those files; elsewhere
 * the modes are checked. A DATA_DIR open to others that the server may not change stops it with a message.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDirPrivate, PrivateDataDirError, type WalkFs } from '../src/server/db/private-files';
import { request, startServer } from './helpers/server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KEY_MARK = '-----BEGIN PRIVATE KEY-----';
const HASH_MARK = '$argon2id$';

/** `nobody`'s uid and gid when this process may act as another user (root), else null. */
function secondUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
const other = secondUser();

interface Entry {
  path: string;
  kind: 'dir' | 'file' | 'link';
  mode: number;
}

function walk(dir: string): Entry[] {
  const out: Entry[] = [];
  const visit = (p: string) => {
    const st = fs.lstatSync(p);
    const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
    out.push({ path: p, kind, mode: st.mode & 0o7777 });
    if (kind === 'dir') for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return out;
}

/** Entries whose mode is not 0700 (directories) or 0600 (files), as `path 0mode`. */
function notPrivate(entries: Entry[]): string[] {
  return entries
    .filter((e) => (e.kind === 'dir' && e.mode !== 0o700) || (e.kind === 'file' && e.mode !== 0o600))
    .map((e) => `${e.path} 0${e.mode.toString(8)}`);
}

/** What `nobody` gets opening each file to read ('r') and to write ('r+'): an error code, or 'opened'. */
function openAsSecondUser(user: { uid: number; gid: number }, files: string[]): Record<string, string> {
  const probe = `
    const fs = require('node:fs');
    const out = {};
    for (const p of JSON.parse(fs.readFileSync(0, 'utf8'))) {
      for (const flag of ['r', 'r+']) {
        try { fs.closeSync(fs.openSync(p, flag)); out[p + ' ' + flag] = 'opened'; } catch (e) { out[p + ' ' + flag] = e.code; }
      }
    }
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['-e', probe], { ...user, cwd: '/', input: JSON.stringify(files), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the probe as uid ${user.uid} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string>;
}

function filesHolding(entries: Entry[], mark: string): string[] {
  return entries.filter((e) => e.kind === 'file' && fs.readFileSync(e.path).includes(mark)).map((e) => e.path);
}

describe('makeDataDirPrivate', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  function tree(): string {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-private-'));
    dirs.push(base);
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(path.join(dataDir, 'pglite', 'base', '1'), { recursive: true });
    fs.mkdirSync(path.join(dataDir, 'outbox'));
    fs.writeFileSync(path.join(dataDir, 'pglite', 'base', '1', '1259'), 'relation');
    fs.writeFileSync(path.join(dataDir, 'outbox', 'a.eml'), 'To: customer@example.com');
    fs.writeFileSync(path.join(dataDir, 'server.lock'), '{}');
    fs.writeFileSync(path.join(base, 'elsewhere.txt'), 'not DATA_DIR');
    fs.symlinkSync(path.join(base, 'elsewhere.txt'), path.join(dataDir, 'link'));
    for (const d of [dataDir, path.join(dataDir, 'pglite'), path.join(dataDir, 'pglite', 'base'), path.join(dataDir, 'outbox')])
      fs.chmodSync(d, 0o755);
    fs.chmodSync(path.join(dataDir, 'pglite', 'base', '1'), 0o777);
    fs.chmodSync(path.join(dataDir, 'pglite', 'base', '1', '1259'), 0o666);
    fs.chmodSync(path.join(dataDir, 'outbox', 'a.eml'), 0o644);
    fs.chmodSync(path.join(dataDir, 'server.lock'), 0o600);
    fs.chmodSync(path.join(base, 'elsewhere.txt'), 0o644);
    return dataDir;
  }

  it('takes group and other access off every folder and file under DATA_DIR, and leaves what a link points to', () => {
    const dataDir = tree();
    expect(makeDataDirPrivate(dataDir)).toEqual({ checked: 8, repaired: 7 });
    const entries = walk(dataDir);
    expect(notPrivate(entries)).toEqual([]);
    expect(entries.filter((e) => e.kind === 'file')).toHaveLength(3);
    expect(fs.statSync(path.join(dataDir, '..', 'elsewhere.txt')).mode & 0o777).toBe(0o644);
    // Nothing left to repair the second time.
    expect(makeDataDirPrivate(dataDir)).toEqual({ checked: 8, repaired: 0 });
  });

  it('leaves a DATA_DIR that does not exist yet to be created', () => {
    const missing = path.join(os.tmpdir(), `trc-private-missing-${process.pid}`);
    expect(makeDataDirPrivate(missing)).toEqual({ checked: 0, repaired: 0 });
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('refuses, naming DATA_DIR, the file, its owner and what to do, when it may not change a mode', () => {
    const dataDir = tree();
    const eml = path.join(dataDir, 'outbox', 'a.eml');
    const fsys: WalkFs = {
      statSync: fs.statSync,
      lstatSync: fs.lstatSync,
      readdirSync: fs.readdirSync,
      chmodSync: (p, mode) => {
        if (p === eml) throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
        fs.chmodSync(p, mode);
      },
    };
    let error: unknown;
    try {
      makeDataDirPrivate(dataDir, fsys);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PrivateDataDirError);
    const message = (error as Error).message;
    expect(message).toContain(`DATA_DIR (${dataDir}) is open to other users and cannot be made private`);
    expect(message).toContain(`${eml} has mode 0644, owner uid ${fs.statSync(eml).uid}`);
    expect(message).toContain('(EPERM)');
    expect(message).toContain(`chown -R <user>: ${dataDir} && chmod -R go-rwx ${dataDir}`);
    // What it could change, it did.
    expect(fs.statSync(path.join(dataDir, 'pglite')).mode & 0o777).toBe(0o700);
  });

  it.skipIf(!other)(
    'stops the server started by another user on a DATA_DIR it may not make private',
    () => {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-private-'));
      dirs.push(base);
      fs.chmodSync(base, 0o755);
      const dataDir = path.join(base, 'data');
      fs.mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'outbox', 'a.eml'), 'To: customer@example.com');
      fs.chmodSync(dataDir, 0o755);
      fs.chmodSync(path.join(dataDir, 'outbox'), 0o755);
      fs.chmodSync(path.join(dataDir, 'outbox', 'a.eml'), 0o644);
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
        ...other!,
        cwd: root,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        // It compiles the server for a user whose cache of compiled files may be cold, beside the other lane's
        // browser tests on CI: minutes at worst, seconds as a rule.
        timeout: 240_000,
      });
      expect(r.error, r.stderr).toBeUndefined();
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        `test-report-center: DATA_DIR (${dataDir}) is open to other users and cannot be made private: ${dataDir} has mode 0755`,
      );
      expect(r.stderr).toContain(`(uid ${other!.uid}) may not change it (EPERM) (and 2 more)`);
      expect(r.stderr).toContain('chmod -R go-rwx');
      expect(fs.statSync(path.join(dataDir, 'outbox', 'a.eml')).mode & 0o777).toBe(0o644);
    },
    300_000,
  );
});

describe('a server, a backup and a restore under umask 022', () => {
  let base: string;
  let dataDir: string;
  let archive: string;
  let restored: string;
  let entries: Entry[];
  let serverLog: string;
  let umask: number;

  beforeAll(async () => {
    // The umask of a shell's `npm start`; the server, the backup and the restore are started under it.
    umask = process.umask(0o022);
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-private-'));
    // The folder above DATA_DIR open to everyone, as /var/lib or a home directory is.
    fs.chmodSync(base, 0o755);
    dataDir = path.join(base, 'data');
    archive = path.join(base, 'trc-backup.tar.gz');
    restored = path.join(base, 'restored');
    // Left by an older version: DATA_DIR, the outbox and a message open to everyone.
    fs.mkdirSync(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'outbox', 'older.eml'), 'To: customer@example.com\r\n\r\nreport\r\n', { mode: 0o644 });

    const server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    try {
      const headers = { cookie: server.cookie, origin: server.url };
      const generated = await request(`${server.url}/api/v1/settings/certificate/generate`, { method: 'POST', headers });
      expect(generated.status).toBe(200);
      const forgot = await request(`${server.url}/api/v1/auth/forgot-password`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com' }),
      });
      expect(forgot.status).toBe(200);
      const outbox = path.join(dataDir, 'outbox');
      for (const end = Date.now() + 60_000; !fs.readdirSync(outbox).some((f) => f.endsWith('.eml') && f !== 'older.eml');) {
        if (Date.now() > end) throw new Error(`no email written: ${server.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await server.stop();
      serverLog = server.output();
    }
    const cli = (name: string, args: string[], target: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(root, `src/server/cli/${name}.ts`), ...args], {
        cwd: root,
        env: { ...process.env, DATA_DIR: target, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    const backup = cli('backup', [archive], dataDir);
    expect(backup.status, backup.stderr).toBe(0);
    const restore = cli('restore', [archive], restored);
    expect(restore.status, restore.stderr).toBe(0);
    entries = walk(dataDir);
  }, 480_000);
  afterAll(() => {
    if (umask !== undefined) process.umask(umask);
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('leaves every folder under DATA_DIR 0700 and every file 0600, the database, its signing key and the outbox included', () => {
    expect(notPrivate(entries)).toEqual([]);
    expect(entries.filter((e) => e.path.startsWith(path.join(dataDir, 'pglite')) && e.kind === 'file').length).toBeGreaterThan(1000);
    expect(entries.filter((e) => e.path.startsWith(path.join(dataDir, 'outbox')) && e.path.endsWith('.eml'))).toHaveLength(2);
    // The key and the password hashes are in the database's files, which are among those checked.
    expect(filesHolding(entries, KEY_MARK).length).toBeGreaterThan(0);
    expect(filesHolding(entries, HASH_MARK).length).toBeGreaterThan(0);
  });

  it('said on start that it closed what was open', () => {
    expect(serverLog).toMatch(/files and folders under DATA_DIR were open to other users; now owner-only/);
  });

  it('writes the backup archive 0600 outside DATA_DIR too, and a restored database owner-only', () => {
    expect(fs.statSync(archive).mode & 0o7777).toBe(0o600);
    const restoredEntries = walk(restored);
    expect(restoredEntries.filter((e) => e.kind === 'file').length).toBeGreaterThan(1000);
    expect(notPrivate(restoredEntries)).toEqual([]);
  });

  it.skipIf(!other)('lets another user read or write none of it, even with the folders opened to them', () => {
    const files = [
      ...entries.filter((e) => e.kind === 'file').map((e) => e.path),
      ...filesHolding(entries, KEY_MARK),
      archive,
      ...walk(restored)
        .filter((e) => e.kind === 'file')
        .map((e) => e.path),
    ];
    const opened = (answers: Record<string, string>) => Object.entries(answers).filter(([, v]) => v !== 'EACCES');
    expect(opened(openAsSecondUser(other!, files))).toEqual([]);
    // A folder opened by mistake (chmod 0711 lets anyone pass through it): each file still refuses.
    const folders = [...entries, ...walk(restored)].filter((e) => e.kind === 'dir').map((e) => e.path);
    for (const d of folders) fs.chmodSync(d, 0o711);
    try {
      expect(opened(openAsSecondUser(other!, files))).toEqual([]);
    } finally {
      for (const d of folders) fs.chmodSync(d, 0o700);
    }
  });
});
