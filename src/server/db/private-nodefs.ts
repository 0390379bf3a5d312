/**
 * PGlite's folder (DATA_DIR/pglite) with owner-only files. PGlite reaches the disk through Emscripten's
 * NODEFS, and Emscripten's FS.open chmods every file it creates to the mode asked for: 0666 from
 * FS.writeFile, which loads a new cluster (initdb's or the build's template) and a restore. A chmod
 * ignores the umask, so those files were 0666 under any umask, the signing key and password hashes with
 * them (1,126 of 1,148 files of a new database); PostgreSQL's own 0600 came through only for the files it
 * opens itself. NODEFS's mknod (creating) and setattr (chmod) are the only two ways a mode reaches the
 * disk, so here both keep the owner's bits and drop group and other.
 */
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { GROUP_AND_OTHER } from './private-files';

/** The parts of an Emscripten file system's operations that carry a mode. */
interface ModeOps {
  mknod?: (parent: unknown, name: string, mode: number, dev: number) => unknown;
  setattr?: (target: unknown, attr: { mode?: number }) => unknown;
}
interface EmscriptenNodeFs {
  node_ops?: ModeOps;
  stream_ops?: ModeOps;
}

const OWNER_ONLY = Symbol('owner-only modes');
const ownerOnly = (mode: number) => mode & ~GROUP_AND_OTHER;

function ownerOnlySetattr(ops: ModeOps | undefined, where: string): void {
  const setattr = ops?.setattr;
  if (!ops || typeof setattr !== 'function')
    throw new Error(`PGlite's NODEFS has no ${where}.setattr: its files' modes cannot be kept private`);
  ops.setattr = (target, attr) => setattr.call(ops, target, attr.mode === undefined ? attr : { ...attr, mode: ownerOnly(attr.mode) });
}

/**
 * Makes one Emscripten NODEFS create and chmod owner-only. Its operations are objects shared by every node
 * of the instance, changed in place once. Throws when PGlite's NODEFS no longer has them (a new PGlite):
 * a database whose files anyone could read must not open silently.
 */
export function keepNodefsPrivate(nodefs: unknown): void {
  const fsys = nodefs as EmscriptenNodeFs & { [OWNER_ONLY]?: true };
  if (fsys[OWNER_ONLY]) return;
  const nodeOps = fsys.node_ops;
  const mknod = nodeOps?.mknod;
  if (!nodeOps || typeof mknod !== 'function')
    throw new Error("PGlite's NODEFS has no node_ops.mknod: its files' modes cannot be kept private");
  nodeOps.mknod = (parent, name, mode, dev) => mknod.call(nodeOps, parent, name, ownerOnly(mode), dev);
  ownerOnlySetattr(nodeOps, 'node_ops');
  ownerOnlySetattr(fsys.stream_ops, 'stream_ops');
  fsys[OWNER_ONLY] = true;
}

/** PGlite's NodeFS whose files and folders are owner-only (0600, 0700) whatever the umask. */
export class PrivateNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    // First in line: before NodeFS mounts the folder and before anything is written through it.
    const first = (mod: { NODEFS: unknown }) => keepNodefsPrivate(mod.NODEFS);
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [first, ...(emscriptenOpts.preRun ?? [])] } };
  }
}
