/**
 * The README is what a newcomer reads in ten minutes, and the map to docs/: it stays short, every relative
 * link in it and in the documents under docs/ reaches a file (and the heading it names), the screen labels it
 * cites are the en catalogue's, and the demo it describes is the one src/server/demo makes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../src/shared/i18n/index';
import { seededRandom } from '../src/server/demo/random';
import { generateRequests } from '../src/server/demo/requests';
import { SIZES } from '../src/server/demo/sizes';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');

/** README.md and every Markdown file under docs/, as paths from the repository root. */
function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out;
}

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a file's headings: lower case, punctuation but `_` dropped, spaces as hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    // A link in a heading counts by its text; backticks and asterisks go with the other punctuation.
    const plain = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase();
    const base = plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link of a file: [text](target) and [text](target "title"), outside code. */
function relativeLinks(md: string): string[] {
  const out: string[] = [];
  for (const m of prose(md).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    out.push(target);
  }
  return out;
}

type Tree = { [key: string]: string | Tree };
const en = catalogues.en as Tree;

function* values(tree: Tree): Generator<string> {
  for (const v of Object.values(tree)) {
    if (typeof v === 'string') yield v;
    else yield* values(v);
  }
}
const enTexts = new Set(values(en));

describe('README.md', () => {
  it('is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('names the two commands, the first administrator and the demo', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
    expect(readme).toContain('/register');
    expect(readme).toContain('npm run demo');
  });

  it('links every document under docs/ but the decision records, which it links as a folder', () => {
    const linked = new Set(relativeLinks(readme).map((l) => l.split('#')[0]));
    const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'));
    for (const f of docs) expect(linked, `README links docs/${f}`).toContain(`docs/${f}`);
    expect(linked).toContain('docs/decisions/');
  });
});

describe('the documents', () => {
  it('link only to files that exist, and to headings those files have', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const link of relativeLinks(read(file))) {
        const [target, fragment] = link.split('#') as [string, string | undefined];
        const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target))) : file;
        if (!fs.existsSync(path.join(root, resolved))) {
          broken.push(`${file}: ${link} (no ${resolved})`);
          continue;
        }
        if (fragment && resolved.endsWith('.md') && !anchors(read(resolved)).has(decodeURIComponent(fragment).toLowerCase()))
          broken.push(`${file}: ${link} (no heading #${fragment} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the screen labels the README cites', () => {
  it('names the Verdict filter and its options as the Machine Data screen shows them', () => {
    const standards = en.standards as Tree;
    const filterName = (standards.filter as Tree).verdict as string;
    const options = new Set(Object.values(standards.verdicts as Record<string, string>));
    const cited = [...readme.matchAll(/\b(\w+) filter \*([^*]+)\*/g)];
    expect(cited.length).toBeGreaterThan(0);
    for (const [, name, option] of cited) {
      expect(name).toBe(filterName);
      expect(options, `"${option}" is a verdict the filter offers`).toContain(option);
    }
  });

  it('names every step of a screen path (*A → B*) and every screen it sends the reader on or under as the catalogue does', () => {
    const steps = [...readme.matchAll(/\*([^*\n]+→[^*\n]+)\*/g)].flatMap((m) => m[1]!.split('→').map((s) => s.trim()));
    const places = [...readme.matchAll(/\b(?:under|on) \*([^*\n→]+)\*/g)].map((m) => m[1]!.trim());
    expect(steps.length).toBeGreaterThan(0);
    for (const label of [...steps, ...places]) expect(enTexts, `"${label}" in src/shared/i18n/en`).toContain(label);
  });
});

describe('the demo the README describes', () => {
  const seed = Number(/DEMO_SEED = (\d+)/.exec(read('src/server/demo/demo-start.ts'))![1]);

  it('has the size of SIZES.demo and the demo seed', () => {
    expect(readme).toContain(`(seed ${seed};`);
    expect(readme).toMatch(new RegExp(`\\*\\*Products\\*\\*: ${SIZES.demo.products} valves`));
    expect(readme).toMatch(new RegExp(`\\*\\*Serial ranges\\*\\*: ${SIZES.demo.ranges} batches`));
    expect(readme).toContain(`**Test records**: about ${SIZES.demo.records.toLocaleString('en')} from`);
  });

  it('counts the public requests the generator makes: requests, the serials they name, report requests and lookups', () => {
    const m =
      /\*\*Public requests\*\*: (\d+) over the last (\d+) days up to now, naming (\d+) serials in all: (\d+) report requests[\s\S]*? and (\d+) lookups/.exec(
        readme,
      );
    expect(m, 'the README states the public requests').not.toBeNull();
    const [requests, days, serials, reportRequests, lookups] = m!.slice(1).map(Number);
    // generate.ts seeds the requests with the demo seed + 3; which serials are asked for does not change the counts
    const rows = [
      ...generateRequests(seededRandom(seed + 3), {
        count: SIZES.demo.requests,
        days: SIZES.demo.requestDays,
        now: Date.now(),
        serials: ['GV50-000001', 'BF300-000123'],
      }),
    ];
    const groups = (source: string) => new Set(rows.filter((r) => r.source === source).map((r) => r.groupId)).size;
    expect({ requests, days, serials, reportRequests, lookups }).toEqual({
      requests: groups('request') + groups('lookup'),
      days: SIZES.demo.requestDays,
      serials: rows.length,
      reportRequests: groups('request'),
      lookups: groups('lookup'),
    });
  });
});
