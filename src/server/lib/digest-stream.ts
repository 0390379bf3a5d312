import { createHash } from 'node:crypto';

/**
 * The bytes of `source` as they are read, hashed on the way: `sha256()` gives the hex digest of what has
 * been read so far (the whole file once the reader has finished), without a second pass over it.
 */
export function digesting(source: AsyncIterable<Uint8Array>): { bytes: AsyncIterable<Uint8Array>; sha256(): string } {
  const hash = createHash('sha256');
  let digest: string | null = null;
  return {
    bytes: {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of source) {
          hash.update(chunk);
          yield chunk;
        }
      },
    },
    sha256: () => (digest ??= hash.digest('hex')),
  };
}
