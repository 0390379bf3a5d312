/**
 * The one data generator: products, serial ranges, test records from three benches and public requests,
 * deterministic from a seed, written through the product's own paths — the CSV import services (bulk COPY
 * loader, per-row checks, audit) for products, ranges and records, the machines service for the benches,
 * and the search-requests repository for requests. `npm run demo` fills its database with it; the
 * benchmarks load their large sets with it (`size: SIZES.bench`).
 */
import type { Db } from '../db/client';
import type { ImportResult } from '../../shared/contract/record-history';
import { PRODUCT_CSV_COLUMNS, productCsvCell } from '../../shared/contract/products';
import { SERIAL_RANGE_CSV_COLUMNS } from '../../shared/contract/serials';
import { TEST_SAMPLE_CSV_COLUMNS } from '../../shared/contract/machine-data';
import type { AuditActor } from '../modules/audit/audit.writer';
import { importProducts } from '../modules/products/products.import';
import { importRanges } from '../modules/serials/serials.import';
import { digesting } from '../lib/digest-stream';
import { importMachineData, MACHINE_IMPORT_COLUMNS, MAX_RECORD_ROWS } from '../modules/machine-data/machine-data.import';
import { createMachine } from '../modules/machines/machines.service';
import { demoInstruments } from './instruments';
import { insertSearchRequests } from '../modules/public/searches.repo';
import { seededRandom } from './random';
import { generateProducts, type GeneratedProduct } from './products';
import { generateRanges, serialOf, type GeneratedRange } from './ranges';
import { benchesOf, generateRecords, type GeneratedRecord } from './records';
import { generateRequests } from './requests';
import type { DemoSize } from './sizes';

export interface GenerateOptions {
  size: DemoSize;
  seed: number;
  /** the instant the data ends at (default: now); ranges end the day before, requests at it */
  now?: number;
  actor?: AuditActor;
  log?: (line: string) => void;
  /** leave out parts (a benchmark that needs only the catalogue) */
  only?: Array<'catalogue' | 'records' | 'requests'>;
  /** sees each range as it is imported (a benchmark keeps where serials are to look them up) */
  onRange?: (range: GeneratedRange) => void;
}

export interface GenerateResult {
  products: GeneratedProduct[];
  ranges: number;
  records: number;
  requests: number;
  /** serials of tested units, a few from each part of the span (oldest first) */
  testedSerials: string[];
  /** benches created, with their API keys (shown once, as on the Benches screen) */
  benches: Array<{ name: string; key: string }>;
}

const DEMO_ACTOR: AuditActor = { id: null, label: 'demo data' };

/** A CSV cell: quoted when it holds a comma, quote or line break. */
function cell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV lines in chunks of about 64 kB, as an upload arrives. */
async function* csvBytes(
  header: readonly string[],
  rows: Iterable<ReadonlyArray<string | number | null | undefined>>,
): AsyncGenerator<Uint8Array> {
  const enc = new TextEncoder();
  let buf = `${header.join(',')}\r\n`;
  for (const row of rows) {
    buf += `${row.map(cell).join(',')}\r\n`;
    if (buf.length >= 1 << 16) {
      yield enc.encode(buf);
      buf = '';
    }
  }
  if (buf) yield enc.encode(buf);
}

function check(what: string, r: ImportResult & { skipped?: number }): void {
  if (r.errors.length > 0) {
    const e = r.errors[0]!;
    throw new Error(`demo data: the ${what} import refused row ${e.row} (${e.field}: ${e.message}) and ${r.errors.length - 1} more`);
  }
}

const DAY = 86_400_000;

export async function generateData(db: Db, opts: GenerateOptions): Promise<GenerateResult> {
  const { size, seed } = opts;
  const now = opts.now ?? Date.now();
  const today = Math.floor(now / DAY) * DAY;
  const actor = opts.actor ?? DEMO_ACTOR;
  const log = opts.log ?? (() => {});
  const parts = new Set(opts.only ?? ['catalogue', 'records', 'requests']);
  const importOpts = { dryRun: false, language: 'en' as const };
  const products = generateProducts(seededRandom(seed), size.products);
  const rangeRandom = () => seededRandom(seed + 1);
  const result: GenerateResult = { products, ranges: 0, records: 0, requests: 0, testedSerials: [], benches: [] };
  const t0 = performance.now();
  const took = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

  if (parts.has('catalogue')) {
    check(
      'product',
      await importProducts(
        db,
        csvBytes(
          PRODUCT_CSV_COLUMNS,
          products.map((p) => PRODUCT_CSV_COLUMNS.map((c) => productCsvCell(p[c]))),
        ),
        actor,
        importOpts,
      ),
    );
    const rangeRows = function* () {
      for (const g of generateRanges(rangeRandom(), products, size.ranges, size.productionDays, today, size.rangeStep)) {
        opts.onRange?.(g);
        const row: Record<(typeof SERIAL_RANGE_CSV_COLUMNS)[number], string | number> = {
          product: products[g.product]!.name,
          startSerial: serialOf(g, g.start),
          endSerial: serialOf(g, g.end),
          totalUnits: g.end - g.start + 1,
          productionDate: g.productionDate,
          bodyMaterial: g.bodyMaterial,
        };
        yield SERIAL_RANGE_CSV_COLUMNS.map((c) => row[c]);
      }
    };
    const ranges = await importRanges(db, csvBytes(SERIAL_RANGE_CSV_COLUMNS, rangeRows()), actor, importOpts);
    check('serial range', ranges);
    result.ranges = ranges.stored;
    log(`${products.length} products and ${result.ranges.toLocaleString('en')} serial ranges imported (${took()})`);
  }

  // Serials of tested units, kept a few per stretch of the span so that any part of it can be shown.
  const tested: string[] = [];
  const keepEvery = Math.max(1, Math.floor(size.records / 2.5 / 2000));
  let seen = 0;
  const onSerial = (serial: string) => {
    if (seen++ % keepEvery === 0) tested.push(serial);
  };
  const benches = benchesOf(size.benches ?? 3);
  const plan = {
    count: size.records,
    sampledShare: size.sampledShare,
    days: size.productionDays,
    today,
    benches,
    rangeStep: size.rangeStep,
  };
  const records = () => generateRecords(seededRandom(seed + 2), rangeRandom(), products, size.ranges, plan, onSerial);

  if (parts.has('records')) {
    const made: { id: string; name: string }[] = [];
    for (const b of benches) {
      const bench = await createMachine(db, actor, { name: b.name });
      made.push(bench.machine);
      result.benches.push({ name: b.name, key: bench.key });
    }
    // Every record names its bench's gauge, calibrated over the whole span (a day's grace before its first
    // day); one pass over the records finds each bench's last test.
    const lastTest = new Map<string, number>();
    for (const r of generateRecords(seededRandom(seed + 2), rangeRandom(), products, size.ranges, plan)) {
      lastTest.set(r.machine, Math.max(lastTest.get(r.machine) ?? 0, Date.parse(r.testedAt)));
    }
    await demoInstruments(db, actor, made, { firstDay: today - (size.productionDays + 1) * DAY, today, lastTest }, benches);
    // A file takes at most MAX_RECORD_ROWS records: a larger set (the ten-year factory) goes in files of that
    // many, each read again from the seed, which skips the records of the files before it.
    const withSamples = size.sampledShare > 0;
    for (let from = 0; from < size.records; from += MAX_RECORD_ROWS) {
      const part = function* () {
        // A pass of a set in several files sees every tested unit from the first on: the serials kept are
        // the last pass's. (One file's two passes, samples then records, keep both, as the demo always has.)
        if (size.records > MAX_RECORD_ROWS) {
          tested.length = 0;
          seen = 0;
        }
        let i = 0;
        for (const r of records()) {
          if (i >= from + MAX_RECORD_ROWS) return;
          if (i++ >= from) yield r;
        }
      };
      const sampleRows = function* () {
        for (const r of part()) if (r.samples) for (const s of r.samples) yield [r.recordId, s.t, s.p];
      };
      const recordRows = function* () {
        for (const r of part()) yield MACHINE_IMPORT_COLUMNS.map((c) => r[c as keyof GeneratedRecord] as string | number | null);
      };
      const recordsFile = digesting(csvBytes(MACHINE_IMPORT_COLUMNS, recordRows()));
      const imported = await importMachineData(
        db,
        async () => ({
          samples: withSamples ? csvBytes(TEST_SAMPLE_CSV_COLUMNS, sampleRows()) : undefined,
          records: recordsFile.bytes,
          fileName: size.records > MAX_RECORD_ROWS ? `demo-test-records-${from / MAX_RECORD_ROWS + 1}.csv` : 'demo-test-records.csv',
          sha256: recordsFile.sha256,
          more: async () => false,
        }),
        { ...actor, admin: true },
        importOpts,
      );
      check('test record', imported);
      result.records += imported.stored;
      if (size.records > MAX_RECORD_ROWS) log(`${result.records.toLocaleString('en')} test records imported (${took()})`);
      // The ranges' units ran out before the count: nothing is left for another file.
      if (imported.stored < MAX_RECORD_ROWS) break;
    }
    log(`${result.records.toLocaleString('en')} test records from ${benches.length} benches imported (${took()})`);
  } else {
    tested.length = 0;
    seen = 0;
    for (const _ of records());
  }
  result.testedSerials = tested;

  if (parts.has('requests') && tested.length > 0) {
    let batch = [];
    for (const row of generateRequests(seededRandom(seed + 3), { count: size.requests, days: size.requestDays, now, serials: tested })) {
      batch.push(row);
      if (batch.length === 2000) {
        const rows = batch;
        await db.transaction((tx) => insertSearchRequests(tx, rows));
        result.requests += batch.length;
        batch = [];
      }
    }
    if (batch.length) await db.transaction((tx) => insertSearchRequests(tx, batch));
    result.requests += batch.length;
    log(`${result.requests.toLocaleString('en')} public requests written (${took()})`);
  }
  return result;
}

export type { GeneratedRange };
