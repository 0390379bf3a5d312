/**
 * Nameplate QR labels (docs/decisions/0023-nameplate-labels-and-near-miss.md): a file of 10,000 labels in
 * each layout, drawn as the route draws it and read as fast as it comes: wall-clock and CPU time, size, and
 * the most the heap grew. Target: the file in seconds, memory not growing with its size.
 * `LABELS_BENCH_UNITS` sets a smaller count for a quick check.
 */
import os from 'node:os';
import { LABEL_LAYOUTS, MAX_LABELS_PER_FILE } from '../src/shared/contract/labels';
import { createLabelsDocument, writeLabels } from '../src/server/modules/serials/labels-pdf';
import { ms } from './lib/stats';
import type { FigureRow } from './lib/figures-table';

const UNITS = Number(process.env.LABELS_BENCH_UNITS ?? MAX_LABELS_PER_FILE);

export default async function labels(
  log: (line: string) => void,
  _args: string[] = [],
  report: (row: FigureRow) => void = () => {},
): Promise<void> {
  for (const layout of LABEL_LAYOUTS) {
    const plan = {
      prefix: 'BF300-',
      width: 6,
      from: 1n,
      to: BigInt(UNITS),
      productName: 'Gate Valve DN50 PN16 閘閥',
      layout,
      publicBaseUrl: 'https://reports.example.com',
      gtin: null,
      testMark: '',
      title: 'bench',
    };
    // Warm: fonts parsed, code compiled.
    const warm = await createLabelsDocument({ ...plan, to: 30n });
    warm.resume();
    await writeLabels(warm, { ...plan, to: 30n });
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    let bytes = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const doc = await createLabelsDocument(plan);
    doc.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes % 64 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    });
    const ended = new Promise((resolve) => doc.on('end', resolve));
    await writeLabels(doc, plan);
    await ended;
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    log(
      `${layout}: ${UNITS} labels in ${ms(wall)} (CPU ${ms((c.user + c.system) / 1000)}), ${(bytes / 1048576).toFixed(1)} MB, ` +
        `heap grew at most ${((peak - heap0) / 1048576).toFixed(1)} MB; target: seconds (load ${os.loadavg()[0]!.toFixed(2)})`,
    );
    // No target row: "in seconds, memory not growing with the file" is no figure to be met or missed.
    report({
      what: `nameplate QR labels, a file of ${UNITS.toLocaleString('en')} in the ${layout} layout, drawn and read as fast as it comes`,
      figure: `${(wall / 1000).toFixed(1)} s (CPU ${((c.user + c.system) / 1e6).toFixed(1)} s), ${(bytes / 1048576).toFixed(1)} MB; heap grew at most ${((peak - heap0) / 1048576).toFixed(1)} MB`,
    });
  }
}
