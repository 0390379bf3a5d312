/**
 * The few bytes of tar the backup file needs: regular files only (ustar headers), gzip around them.
 * Written here rather than taken from a package: two functions, and the reader refuses anything unusual.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  data: Buffer;
}

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 8, 'ascii');
  h.write('0000000\0', 108, 8, 'ascii');
  h.write('0000000\0', 116, 8, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  h.write(
    `${Math.floor(mtime / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    12,
    'ascii',
  );
  h.write('        ', 148, 8, 'ascii');
  h.write('0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

export function tarGz(entries: TarEntry[], mtime = Date.now()): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e.name, e.data.length, mtime), e.data);
    const pad = (512 - (e.data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

export function untarGz(file: Buffer): TarEntry[] {
  const tar = gunzipSync(file);
  const out: TarEntry[] = [];
  let at = 0;
  while (at + 512 <= tar.length) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    const type = String.fromCharCode(h[156]!);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    const stored = parseInt(h.subarray(148, 156).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    if (!Number.isFinite(size) || sum !== stored) throw new Error('not a backup file (bad tar header)');
    if (type !== '0' && type !== '\0') throw new Error(`unexpected entry type in the backup: ${name}`);
    at += 512;
    if (at + size > tar.length) throw new Error('the backup file is truncated');
    out.push({ name, data: Buffer.from(tar.subarray(at, at + size)) });
    at += size + ((512 - (size % 512)) % 512);
  }
  return out;
}
