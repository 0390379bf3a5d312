/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line, e.g.
 * `npm run bench -- startup catalogue`) and prints each figure; flags after the names (`npm run bench -- load
 * --duration 60`) reach each bench as its second argument. A bench default-exports
 * `async (log) => void`; it prints its own figures and, where a peer exists, the ratio from the same run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** `args`: the command line's flags (`--duration 60`…): everything from the first argument starting with `--`. */
type Bench = (log: (line: string) => void, args: string[]) => Promise<void>;

const dir = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const firstFlag = argv.findIndex((a) => a.startsWith('--'));
const wanted = firstFlag < 0 ? argv : argv.slice(0, firstFlag);
const flags = firstFlag < 0 ? [] : argv.slice(firstFlag);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

let failed = 0;
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  console.log(`\n## ${name}`);
  const started = performance.now();
  try {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: Bench };
    await mod.default((line) => console.log(`  ${line}`), flags);
    console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed++;
    console.log(`  FAILED: ${(err as Error).stack ?? String(err)}`);
  }
}
process.exit(failed ? 1 : 0);
