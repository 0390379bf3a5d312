/**
 * A Vite build plugin: after the bundle is written, every text asset of dist/web (JS, CSS, HTML, SVG,
 * JSON, fonts' CSS) of at least 1 KB gets a brotli (quality 11) and a gzip (level 9) copy beside it
 * (`app.js.br`, `app.js.gz`), which @fastify/static's `preCompressed` serves to browsers that accept
 * them. Compressed once at the highest level, instead of on every request at a cheap one. node:zlib only.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|wasm|ttf|otf)$/i;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes .br and .gz of one file beside it when that saves bytes; false when the file is not worth it. */
export function precompressFile(file: string): boolean {
  if (!COMPRESSIBLE.test(file)) return false;
  const data = fs.readFileSync(file);
  if (data.length < MIN_BYTES) return false;
  const br = zlib.brotliCompressSync(data, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  const gz = zlib.gzipSync(data, { level: 9 });
  // A copy that saves nothing would only cost a disk read: the server then sends the file as it is.
  if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
  return true;
}

/** Writes .br and .gz beside each compressible file of `dir`; returns how many files were compressed. */
export function precompressDir(dir: string): number {
  let count = 0;
  for (const file of files(dir)) if (precompressFile(file)) count++;
  return count;
}

export function precompress(): Plugin {
  let outDir = 'dist/web';
  return {
    name: 'trc-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
