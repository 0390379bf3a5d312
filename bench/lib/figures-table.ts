/**
 * The figures table of docs/benchmarks.md, rewritten from a run (`npm run bench -- <name> --markdown`): the
 * rows whose `bench` cell names the bench that ran are replaced by the rows it reported, in the place of the
 * first of them (at the end of the table for a bench that had none), and every other row is kept as it is.
 */

/** One figure as a bench reports it; the run adds the bench's name, the date, the load and the machine. */
export interface FigureRow {
  what: string;
  figure: string;
  target?: string;
  peer?: string;
}

/** Where and on what the run took place. */
export interface RunConditions {
  /** YYYY-MM-DD */
  date: string;
  /** the 1-minute load average as the bench ended */
  load: string;
  /** cores and memory, e.g. `2 cores, 8 GiB` */
  machine: string;
}

export const FIGURES_HEADER = ['bench', 'what', 'figure', 'target', 'peer and ratio', 'date', 'load', 'machine'] as const;

const cell = (s: string | undefined) => (s ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim() || '—';

/** A table row's cells, `\|` inside a cell kept as part of it. */
export function cellsOf(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim());
}

export function figureLine(bench: string, row: FigureRow, run: RunConditions): string {
  const cells = [bench, row.what, row.figure, row.target, row.peer, run.date, run.load, run.machine].map(cell);
  return `| ${cells.join(' | ')} |`;
}

/**
 * `markdown` with the figures table's rows of `bench` replaced by `rows`. Throws when the document has no
 * table with the expected header, or more than one, so that a changed document is noticed, not written over.
 */
export function rewriteFiguresTable(markdown: string, bench: string, rows: readonly FigureRow[], run: RunConditions): string {
  const lines = markdown.split('\n');
  const headers = lines
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.trim().startsWith('|') && cellsOf(line).join('|') === FIGURES_HEADER.join('|'));
  if (headers.length !== 1) {
    throw new Error(`expected one table headed | ${FIGURES_HEADER.join(' | ')} |, found ${headers.length}`);
  }
  const first = headers[0]!.i + 2; // past the header and its | --- | line
  let end = first;
  while (end < lines.length && lines[end]!.trim().startsWith('|')) end++;

  const body = lines.slice(first, end);
  const at = body.findIndex((line) => cellsOf(line)[0] === bench);
  const kept = body.filter((line) => cellsOf(line)[0] !== bench);
  const fresh = rows.map((row) => figureLine(bench, row, run));
  // Rows before the bench's first row are none of its own, so that index is the same in `kept`.
  kept.splice(at < 0 ? kept.length : at, 0, ...fresh);
  return [...lines.slice(0, first), ...kept, ...lines.slice(end)].join('\n');
}
