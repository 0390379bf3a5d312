#!/usr/bin/env node
/**
 * Fails when files under src/ import each other in a cycle (run by `npm run lint`). No dependency: the
 * `import … from '…'`, `export … from '…'` and `import '…'` statements of every .ts/.tsx file are read with
 * a regular expression, relative paths are resolved to files, and a depth-first search reports each cycle.
 * Type-only statements (`import type`, `export type`) are left out: they vanish when compiled and cannot
 * change the order in which modules load. Dynamic `import()` is left out for the same reason (the web
 * app's lazy pages in src/web/app/router.tsx).
 *
 * Usage: node scripts/check-import-cycles.mjs [root, default src]
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? 'src');

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Comments out, so that an example in a comment is not read as an import; `//` after `:` (a URL) stays. */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const STATEMENT = /(?:^|[;}\n])\s*(import|export)\s+(type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"]([^'"]+)['"]/g;

function importsOf(file) {
  const text = withoutComments(fs.readFileSync(file, 'utf8'));
  const specs = [];
  for (const m of text.matchAll(STATEMENT)) {
    if (m[2]) continue; // import type / export type
    // `import { type A, type B } from` is type-only too.
    const names = m[0].match(/\{([^}]*)\}/);
    if (names && !/\*/.test(m[0]) && !/^\s*(import|export)\s+[\w$]+\s*,/.test(m[0].replace(/^[;}\n]/, ''))) {
      const parts = names[1]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (parts.length && parts.every((p) => p.startsWith('type '))) continue;
    }
    if (m[3].startsWith('.')) specs.push(m[3]);
  }
  return specs;
}

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  if (base.endsWith('.js')) candidates.push(`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`);
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

const files = sourceFiles(root);
const graph = new Map(
  files.map((f) => [
    f,
    importsOf(f)
      .map((s) => resolve(f, s))
      .filter((t) => t && /\.tsx?$/.test(t)),
  ]),
);

const WHITE = 0;
const GREY = 1;
const BLACK = 2;
const colour = new Map(files.map((f) => [f, WHITE]));
const stack = [];
const cycles = [];

function visit(file) {
  colour.set(file, GREY);
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (colour.get(next) === GREY) cycles.push([...stack.slice(stack.indexOf(next)), next]);
    else if (colour.get(next) === WHITE) visit(next);
  }
  stack.pop();
  colour.set(file, BLACK);
}

for (const f of files) if (colour.get(f) === WHITE) visit(f);

const rel = (f) => path.relative(process.cwd(), f);

/**
 * The folder a file belongs to as a module: a domain module (`server/modules/orders`, `web/features/orders`), a
 * layer of the server, the shared code or the web app (`server/lib`, `server/mail`, `server/db`, `shared/standards`,
 * `web/components`…). Files directly in `src/server` (the app, the process, the background work) wire every module
 * together and are the top; they are a folder of their own.
 */
function folderOf(file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length <= 2) return parts.slice(0, -1).join('/') || '.';
  if ((parts[0] === 'server' && parts[1] === 'modules') || (parts[0] === 'web' && parts[1] === 'features'))
    return parts.slice(0, 3).join('/');
  return parts.slice(0, 2).join('/');
}

// Folders import each other only one way: a cycle between two folders, through any of their files, is
// reported with one import of each step that makes it.
const folderEdges = new Map();
for (const [from, targets] of graph) {
  for (const to of targets) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b) continue;
    if (!folderEdges.has(a)) folderEdges.set(a, new Map());
    if (!folderEdges.get(a).has(b)) folderEdges.get(a).set(b, `${rel(from)} → ${rel(to)}`);
  }
}
const folderCycles = [];
const fColour = new Map();
const fStack = [];
function visitFolder(f) {
  fColour.set(f, GREY);
  fStack.push(f);
  for (const next of folderEdges.get(f)?.keys() ?? []) {
    if (fColour.get(next) === GREY) folderCycles.push([...fStack.slice(fStack.indexOf(next)), next]);
    else if (!fColour.has(next)) visitFolder(next);
  }
  fStack.pop();
  fColour.set(f, BLACK);
}
for (const f of folderEdges.keys()) if (!fColour.has(f)) visitFolder(f);

if (cycles.length || folderCycles.length) {
  if (cycles.length) console.error(`Import cycles between files (${cycles.length}):`);
  for (const c of cycles) console.error(`  ${c.map(rel).join('\n    → ')}`);
  if (folderCycles.length) console.error(`Import cycles between folders (${folderCycles.length}):`);
  for (const c of folderCycles)
    console.error(
      `  ${c.join(' → ')}\n${c
        .slice(0, -1)
        .map((f, i) => `      ${folderEdges.get(f).get(c[i + 1])}`)
        .join('\n')}`,
    );
  process.exit(1);
}
console.log(`No import cycles among ${files.length} files under ${rel(root) || '.'}, nor between their folders.`);
