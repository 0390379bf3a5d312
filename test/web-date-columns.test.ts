/**
 * Every date a screen lists goes through the one formatter ("24 Nov 2026" / "2026年11月24日",
 * src/shared/format/dates.ts; docs/decisions/0024-polish-dates-vocabulary-sorting.md): over the source of
 * the web app, each list column (`{ id, render }`) and each fact (`{ label, value }`) that names a date must
 * render it with formatDate, formatDateTime or formatDay. A column that prints a raw `2026-11-25` fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../src/web/components/format';

const ROOT = path.join(__dirname, '..', 'src', 'web');
const FORMATTERS = /\bformat(Date|DateTime|Day|ShortDay)\(/;
/** A field that holds a date or an instant: `date`, `productionDate`, `createdAt`, `lastUsedAt`, `testedAt`… */
const DATE_NAME = /^(date|day|\w+(Date|At|Day))$/;

interface DateCell {
  where: string;
  name: string;
  shown: string;
  /** the file's own functions that call the formatter (`const time = (r) => formatDateTime(lang, r.at)`) */
  helpers: string[];
}

/** Names of the functions of a file whose body calls one of the formatters. */
function formattingHelpers(source: ts.SourceFile): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) &&
      FORMATTERS.test(node.initializer.getText(source))
    )
      names.push(node.name.text);
    if (ts.isFunctionDeclaration(node) && node.name && FORMATTERS.test(node.getText(source))) names.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function throughFormatter(c: DateCell): boolean {
  return FORMATTERS.test(c.shown) || c.helpers.some((h) => new RegExp(`\\b${h}\\(`).test(c.shown));
}

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const props = (o: ts.ObjectLiteralExpression) =>
  new Map(
    o.properties.flatMap((p) =>
      (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))
        ? [[p.name.text, p] as const]
        : [],
    ),
  );

/** The name of a column (`id: 'createdAt'`) or of a fact (`label: f('productionDate')`, `label: t('….sentAt')`). */
function nameOf(node: ts.Node | undefined): string | null {
  if (!node || !ts.isPropertyAssignment(node)) return null;
  const init = node.initializer;
  if (ts.isStringLiteral(init)) return init.text.split('.').pop()!;
  if (ts.isCallExpression(init) && init.arguments[0] && ts.isStringLiteralLike(init.arguments[0])) {
    return init.arguments[0].text.split('.').pop()!;
  }
  return null;
}

function dateCells(): DateCell[] {
  const out: DateCell[] = [];
  for (const file of files(ROOT)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const helpers = formattingHelpers(source);
    const visit = (node: ts.Node) => {
      if (ts.isObjectLiteralExpression(node)) {
        const p = props(node);
        const isColumn = p.has('id') && p.has('render');
        const isFact = p.has('label') && p.has('value');
        const name = isColumn ? nameOf(p.get('id')) : isFact ? nameOf(p.get('label')) : null;
        if (name && DATE_NAME.test(name)) {
          const shown = [isColumn ? p.get('render') : p.get('value'), p.get('cardRender')]
            .filter((x): x is NonNullable<typeof x> => !!x)
            .map((x) => x.getText(source))
            .join('\n');
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          out.push({ where: `${path.relative(ROOT, file)}:${line + 1}`, name, shown, helpers });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

describe('dates in lists', () => {
  const cells = dateCells();

  it('finds the date columns of the lists, the serial numbers’ production date among them', () => {
    expect(cells.length).toBeGreaterThanOrEqual(10);
    const where = cells.map((c) => `${c.where} ${c.name}`).join('\n');
    expect(where).toMatch(/serial-numbers-page\.tsx:\d+ productionDate/);
    expect(where).toMatch(/unit-history-page\.tsx:\d+ productionDate/);
    expect(where).toMatch(/record-page\.tsx:\d+ productionDate/);
    expect(where).toMatch(/machine-data-page\.tsx:\d+ testedAt/);
  });

  it('renders every one of them through the formatter', () => {
    const raw = cells.filter((c) => !throughFormatter(c)).map((c) => `${c.where} ${c.name}: ${c.shown}`);
    expect(raw, 'date columns shown without formatDate / formatDateTime / formatDay').toEqual([]);
  });

  it('writes a production date as the formatter does, in both languages', () => {
    expect(formatDate('en', '2026-11-25')).toBe('25 Nov 2026');
    expect(formatDate('zh', '2026-11-25')).toBe('2026年11月25日');
  });
});
