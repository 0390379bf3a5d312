/**
 * DATA_DIR holds the embedded database (the signing key, password hashes, every customer's request), the
 * .eml outbox and the backups: only the user the server runs as may read or write any of it. Directories
 * are 0700 and files 0600, whatever the umask the server was started with (docs/operations.md, "Files
 * under DATA_DIR and their modes"). What keeps it so: the process's umask (everything it creates),
 * PGlite's file system made owner-only (private-nodefs.ts: a umask does not reach its chmods), explicit
 * modes where the server writes a file itself, and a walk of DATA_DIR on every start that takes group and
 * other access off anything an older version or another tool left open.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The bits that give anyone but the owner access. */
export const GROUP_AND_OTHER = 0o077;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Everything this process creates from now on is its user's only. Main thread only (Node refuses to set
 * the umask in a worker): the server and each command line call it before anything else.
 */
export function useOwnerOnlyUmask(): void {
  process.umask(GROUP_AND_OTHER);
}

/** DATA_DIR is open to other users and this process cannot close it: the server must not start. */
export class PrivateDataDirError extends Error {
  override name = 'PrivateDataDirError';
}

/** The file system calls the walk makes (node:fs; a test passes one whose chmod fails). */
export type WalkFs = Pick<typeof fs, 'statSync' | 'lstatSync' | 'readdirSync' | 'chmodSync'>;

export interface PrivateResult {
  /** directories and files looked at */
  checked: number;
  /** of those, how many had group or other access taken off */
  repaired: number;
}

interface Refused {
  path: string;
  mode: number;
  uid: number;
  code: string;
}

const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

/**
 * Takes group and other access off DATA_DIR and everything under it (directories 0700, files 0600).
 * Symbolic links are not followed below DATA_DIR itself: what they point to is not DATA_DIR's. Throws
 * PrivateDataDirError, naming DATA_DIR and what to do, when something stays open because this process may
 * not change it (owned by another user). A DATA_DIR that does not exist yet is left to be created.
 */
export function makeDataDirPrivate(dataDir: string, fsys: WalkFs = fs): PrivateResult {
  const result: PrivateResult = { checked: 0, repaired: 0 };
  const refused: Refused[] = [];
  let top: fs.Stats;
  try {
    top = fsys.statSync(dataDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw err;
  }
  if (!top.isDirectory()) throw new PrivateDataDirError(`DATA_DIR (${dataDir}) is not a directory`);

  const visit = (p: string, st: fs.Stats): void => {
    result.checked += 1;
    if ((st.mode & GROUP_AND_OTHER) === 0) return;
    try {
      fsys.chmodSync(p, st.mode & 0o7700);
      result.repaired += 1;
    } catch (err) {
      refused.push({ path: p, mode: st.mode, uid: st.uid, code: (err as NodeJS.ErrnoException).code ?? String(err) });
    }
  };
  visit(dataDir, top);
  const dirs = [dataDir];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    let names: string[];
    try {
      names = fsys.readdirSync(dir);
    } catch (err) {
      // A folder this process cannot list is not one it can have opened: its owner keeps it.
      if ((err as NodeJS.ErrnoException).code === 'EACCES') continue;
      throw err;
    }
    for (const name of names) {
      const p = path.join(dir, name);
      let st: fs.Stats;
      try {
        st = fsys.lstatSync(p);
      } catch (err) {
        // Removed meanwhile (a server that still runs, e.g. another instance on the same folder).
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      if (st.isSymbolicLink()) continue;
      visit(p, st);
      if (st.isDirectory()) dirs.push(p);
    }
  }
  if (refused.length) throw new PrivateDataDirError(refusal(dataDir, refused));
  return result;
}

function refusal(dataDir: string, refused: Refused[]): string {
  const [first] = refused as [Refused, ...Refused[]];
  const me = process.getuid?.();
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more)` : '';
  return (
    `DATA_DIR (${dataDir}) is open to other users and cannot be made private: ${first.path} has mode ${octal(first.mode)}, ` +
    `owner uid ${first.uid}, and this process${me === undefined ? '' : ` (uid ${me})`} may not change it (${first.code})${more}. ` +
    `Run the server as the user that owns DATA_DIR, or give DATA_DIR to that user and close it to others, e.g. ` +
    `chown -R <user>: ${dataDir} && chmod -R go-rwx ${dataDir}; then start again.`
  );
}
