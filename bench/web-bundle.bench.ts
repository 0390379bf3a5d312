/**
 * The JavaScript the public /search page and the /login page download on first load, gzipped: the entry
 * of dist/web/index.html with its static imports, plus the lazy chunk of the route and its static imports
 * (Vite's manifest). Target (docs/product.md §7): at most 100 KB for /search, and no staff screen's code there.
 * Builds the web app first when dist/web is missing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FigureRow } from './lib/figures-table';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** WEB_DIST: measure another build directory (default dist/web). */
const dist = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(root, 'dist/web');
const TARGET_SEARCH = 100 * 1024;

/** Source modules whose code is the staff back office; none of it may load on /search or /login. */
const STAFF_CODE =
  /src\/web\/(app\/layouts\/(default-layout|customizer|vertical-nav|horizontal-nav|user-menu)|features\/(staff|account|dashboard|products|serials|machine-data|searches|misc\/pages\/access-control)|components\/data-table)/;

/** The chunks a first visit loads besides index.html's: the app the entry picks and the route's lazy page. */
const ROUTES: Record<string, string[]> = {
  // The page's module is in main-public's chunk (decision 0026): the staff app's /search route loads that chunk too.
  '/search': ['src/web/public-app/main-public.tsx'],
  // The sign-in page is a bundle of its own (docs/decisions/0074-sign-in-page-of-its-own.md).
  '/login': ['src/web/login-app/main-login.tsx'],
};

function ensureBuild(log: (line: string) => void): void {
  if (fs.existsSync(path.join(dist, '.vite/manifest.json'))) return;
  log('building the web app (dist/web is missing)…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('vite build failed');
}

/** The manifest keys a chunk pulls in statically (itself included). */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/** The manifest key of a source module's chunk: the module itself, or a shared chunk Rollup named after it. */
function chunkOf(manifest: Manifest, source: string): string | undefined {
  if (manifest[source]) return source;
  const stem = path.basename(source).replace(/\.[jt]sx?$/, '');
  return Object.keys(manifest).find((k) => k.startsWith(`_${stem}-`) && k.endsWith('.js'));
}

function gzipSize(file: string): number {
  return zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export default async function webBundle(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  ensureBuild(log);
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  // index.html's entry; the offline verifier (verify.html) is the build's other entry, measured below.
  const entryKey = manifest['index.html']?.isEntry
    ? 'index.html'
    : Object.keys(manifest).find((k) => manifest[k]!.isEntry && k !== 'verify.html');
  if (!entryKey) throw new Error('no entry in the Vite manifest');

  // What index.html itself loads: the entry script and its modulepreloads (the entry's static imports).
  const htmlFiles = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const byFile = new Map(Object.entries(manifest).map(([k, c]) => [c.file, k]));
  const initial = new Set<string>();
  for (const f of htmlFiles) {
    const key = byFile.get(f);
    if (key) closure(manifest, key, initial);
  }
  closure(manifest, entryKey, initial);

  let failed = false;
  for (const [route, sources] of Object.entries(ROUTES)) {
    const keys = new Set(initial);
    for (const source of sources) {
      const key = chunkOf(manifest, source);
      if (key) closure(manifest, key, keys);
      else throw new Error(`${source} is not a chunk of the build (is it lazy?)`);
    }
    const files = [...new Set([...keys].map((k) => manifest[k]!.file))];
    const total = files.reduce((sum, f) => sum + gzipSize(f), 0);
    const raw = files.reduce((sum, f) => sum + fs.statSync(path.join(dist, f)).size, 0);
    const staff = [...keys].filter((k) => STAFF_CODE.test(k) || (manifest[k]?.src && STAFF_CODE.test(manifest[k]!.src!)));
    log(
      `${route}: ${kb(total)} gzipped JavaScript (${kb(raw)} raw) in ${files.length} files${route === '/search' ? `; target <= ${kb(TARGET_SEARCH)}: ${total <= TARGET_SEARCH ? 'met' : 'MISSED'}` : ''}`,
    );
    const biggest = files
      .map((f) => [f, gzipSize(f)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);
    log(`  largest: ${biggest.map(([f, n]) => `${path.basename(f)} ${kb(n)}`).join(', ')}`);
    if (staff.length) {
      failed = true;
      log(`  staff screens' code loaded here: ${staff.join(', ')}`);
    } else {
      log("  staff screens' code: none");
    }
    // The built files' size, gzip -9: web-page measures what a browser receives (brotli) on the same pages.
    const met = staff.length === 0 && (route !== '/search' || total <= TARGET_SEARCH);
    report({
      what: `${route === '/search' ? 'public' : 'staff'} \`${route}\`: JavaScript of a first load as built (the entry, its static imports and the route's chunk), gzip -9`,
      figure: `${kb(total)} of JavaScript (${kb(raw)} raw) in ${files.length} files; staff screens' code: ${staff.length ? staff.length + ' modules' : 'none'}`,
      target: `${route === '/search' ? `≤ ${TARGET_SEARCH / 1024} KB, ` : ''}no staff screens' code — ${met ? 'met' : '**not met**'}`,
    });
  }
  verifierBundle(manifest, log, report);
  if (failed) throw new Error('staff code reaches a public page');
}

/** The offline verifier's first load (docs/decisions/0063): its entry and static imports; target ≤ 100 KB. */
function verifierBundle(manifest: Manifest, log: (line: string) => void, report: (row: FigureRow) => void): void {
  if (!manifest['verify.html']) throw new Error('verify.html is not an entry of the build');
  const files = [...closure(manifest, 'verify.html')].map((k) => manifest[k]!.file);
  const total = files.reduce((sum, f) => sum + gzipSize(f), 0);
  const brotli = files.reduce((sum, f) => sum + zlib.brotliCompressSync(fs.readFileSync(path.join(dist, f))).length, 0);
  const met = total <= TARGET_SEARCH;
  log(
    `/verify: ${kb(total)} gzipped JavaScript (${kb(brotli)} brotli) in ${files.length} files; target <= ${kb(TARGET_SEARCH)}: ${met ? 'met' : 'MISSED'}`,
  );
  report({
    what: 'offline verifier `/verify`: JavaScript of a first load as built (its entry and static imports), gzip -9',
    figure: `${kb(total)} (${kb(brotli)} brotli) in ${files.length} files`,
    target: `≤ 100 KB compressed — ${met ? 'met' : '**not met**'}`,
  });
}
