/**
 * pdfkit and fontkit (about 6 MB of heap, two copies of fontkit's tables) are loaded when the first PDF is
 * drawn, not when the server's modules load (docs/decisions/0033-server-memory.md): a child process loads
 * the app's whole module graph (src/server/app.ts) with a resolve hook that writes down every module it
 * resolves, and says which of the two packages were loaded before and after `loadPdfkit()`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-lazy-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An ESM resolve hook (run on the loader's thread) that appends each resolved pdfkit/fontkit URL to SEEN_FILE. */
const HOOK = `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/node_modules\\/(pdfkit|fontkit)\\//.test(r.url)) fs.appendFileSync(process.env.SEEN_FILE, r.url + '\\n');
  return r;
}`;

/** Which of pdfkit and fontkit the process has loaded: through import (the hook's file) or require (its cache). */
const PROBE = (app: string, pdfkit: string) => `
import { createRequire } from 'node:module';
import fs from 'node:fs';
const loaded = () => {
  const seen = fs.existsSync(process.env.SEEN_FILE) ? fs.readFileSync(process.env.SEEN_FILE, 'utf8') : '';
  const required = Object.keys(createRequire(import.meta.url).cache).join('\\n');
  return ['pdfkit', 'fontkit'].filter((p) => seen.includes('/' + p + '/') || required.includes('/node_modules/' + p + '/'));
};
await import(${JSON.stringify(app)});
const atStart = loaded();
const PDFDocument = await (await import(${JSON.stringify(pdfkit)})).loadPdfkit();
const doc = new PDFDocument({ autoFirstPage: false });
console.log(JSON.stringify({ atStart, afterFirstPdf: loaded(), drawable: typeof doc.addPage === 'function' }));
`;

describe('pdfkit is loaded on the first PDF, not with the server', () => {
  it('leaves pdfkit and fontkit out of the app module graph until loadPdfkit()', () => {
    const hook = path.join(dir, 'hook.mjs');
    fs.writeFileSync(hook, HOOK);
    const register = path.join(dir, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
    const probe = path.join(dir, 'probe.mjs');
    const src = (p: string) => pathToFileURL(path.join(root, p)).href;
    fs.writeFileSync(probe, PROBE(src('src/server/app.ts'), src('src/server/lib/pdfkit.ts')));
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(register).href, probe], {
      cwd: root,
      env: { ...process.env, SEEN_FILE: path.join(dir, 'seen.txt') },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { atStart: string[]; afterFirstPdf: string[]; drawable: boolean };
    expect(out.atStart).toEqual([]);
    expect(out.afterFirstPdf).toContain('pdfkit');
    expect(out.drawable).toBe(true);
  }, 150_000);
});
