/**
 * Reading a ZIP in the tests: the archive checked by an independent implementation (Info-ZIP's `unzip -t`
 * when installed, else Python's zipfile), and its entries read back by the central directory.
 */
import { execFileSync } from 'node:child_process';
import { inflateRawSync } from 'node:zlib';
import { tmpFile } from './reports';

function has(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Throws with the tool's output when the archive is not valid (CRCs, sizes, directory). */
export function checkZip(bytes: Buffer): string {
  const file = tmpFile(bytes, 'delivery.zip');
  if (has('unzip')) return execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
  return execFileSync('python3', ['-m', 'zipfile', '-t', file], { encoding: 'utf8' });
}

/** The entries by the central directory, in its order. */
export function readZip(bytes: Buffer): { name: string; data: Buffer }[] {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let p = bytes.readUInt32LE(end + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central header at ${p}`);
    const method = bytes.readUInt16LE(p + 10);
    const size = bytes.readUInt32LE(p + 20);
    const nameLen = bytes.readUInt16LE(p + 28);
    const extraLen = bytes.readUInt16LE(p + 30);
    const commentLen = bytes.readUInt16LE(p + 32);
    const local = bytes.readUInt32LE(p + 42);
    const name = bytes.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    out.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
