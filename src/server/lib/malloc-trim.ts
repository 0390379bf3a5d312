/**
 * Gives the C heap's free pages back to the system: glibc's `malloc_trim(0)`.
 *
 * glibc returns freed memory from the top of its heap only. After a report burst (the render threads'
 * isolates, then their exit) and after an import, tens of MB of freed small blocks stayed resident inside
 * it, below blocks allocated later: `[heap]` 6 → 96 MB on an idle PostgreSQL-backed server
 * (docs/decisions/0033-server-memory.md, sixth section). `malloc_trim(0)` releases every whole free page in
 * it, in a few milliseconds. Node has no binding for it, so it is called through koffi (an FFI package that
 * ships its compiled binaries in the npm package), loaded on the first call. Anywhere without glibc
 * (macOS, Alpine's musl, Windows) or without koffi's binary it does nothing and answers null.
 */
import { createRequire } from 'node:module';
import type * as KoffiModule from 'koffi';
import { onFirstUse } from './first-use';

type Koffi = typeof KoffiModule;

const trimFunction = onFirstUse((): ((pad: number) => number) | null => {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as Koffi;
    return koffi.load('libc.so.6').func('int malloc_trim(size_t)') as (pad: number) => number;
  } catch {
    return null;
  }
});

/** true: memory was given back; false: there was none to give; null: no glibc (or no koffi) to ask. */
export function mallocTrim(): boolean | null {
  const trim = trimFunction();
  return trim ? trim(0) === 1 : null;
}
