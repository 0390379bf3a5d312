/**
 * Large machine-data CSV files, deterministic from a seed (the kill test and the import benchmark). Serials
 * fall in series `MDnn-` (width 8): with `seedRanges` loaded first, 9 of 10 records match a range.
 */
import fs from 'node:fs';

export const MD_SERIES = 100;
/** ranges per series, each 1,000 numbers wide with a gap of 1,000 after it */
export const MD_RANGES_PER_SERIES = 100;
export const MACHINE_CSV_HEADER =
  'recordId,serial,testType,medium,testPressure,holdingSeconds,leakageValue,leakageUnit,result,testedAt,operator,machine';

/** mulberry32: a small seeded PRNG, so that the same seed gives the same file. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = ['shell', 'seat', 'backseat', 'air-seat', 'functional'];
const MEDIA = ['water', 'air', 'nitrogen', 'oil'];
const OPERATORS = ['Chen Mei', '"Lin, Wei"', '王小明', '"張, 大同"', 'J. Smith'];

/** SQL statements that load the products and ranges the generated serials fall in (PostgreSQL and PGlite). */
export const SEED_RANGES_SQL = [
  `INSERT INTO products (name, fluid, pressure_fc, temperature_max, temperature_min)
    SELECT 'MD Product ' || lpad(g::text, 3, '0'), 'water', 1.6, 120, -10 FROM generate_series(0, 99) g`,
  `INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date)
    SELECT p.id, 'MD' || lpad((g % ${MD_SERIES})::text, 2, '0') || '-', 8, (g / ${MD_SERIES})::bigint * 2000,
           (g / ${MD_SERIES})::bigint * 2000 + 999, date '2024-01-01'
    FROM generate_series(0, ${MD_SERIES * MD_RANGES_PER_SERIES - 1}) g
    JOIN (SELECT id, (row_number() OVER (ORDER BY name))::int - 1 AS rn FROM products WHERE name LIKE 'MD Product %') p
      ON p.rn = g % 100`,
];

/** Writes `rows` records (header first, CRLF, with a BOM) to `file`; answers its size in bytes. */
export async function writeMachineCsv(
  file: string,
  rows: number,
  seed: number,
  opts: { machine?: string; idPrefix?: string } = {},
): Promise<number> {
  const rand = prng(seed);
  const out = fs.createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write(`\uFEFF${MACHINE_CSV_HEADER}\r\n`);
  const base = Date.UTC(2024, 0, 1);
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const series = Math.floor(rand() * MD_SERIES);
    const slot = Math.floor(rand() * MD_RANGES_PER_SERIES);
    // 9 of 10 inside a range, 1 of 10 in the gap after it (unmatched)
    const n = slot * 2000 + (rand() < 0.9 ? Math.floor(rand() * 1000) : 1000 + Math.floor(rand() * 1000));
    const serial = `MD${String(series).padStart(2, '0')}-${String(n).padStart(8, '0')}`;
    const leak = rand() < 0.3;
    const tested = new Date(base + Math.floor(rand() * 300 * 86400) * 1000).toISOString();
    buf +=
      `${opts.idPrefix ?? 'R'}${seed}-${i},${serial},${TYPES[i % TYPES.length]},${MEDIA[i % MEDIA.length]},${(1 + Math.floor(rand() * 400) / 100).toFixed(2)},` +
      `${30 + (i % 5) * 30},${leak ? (rand() * 5).toFixed(3) : ''},${leak ? 'ml/min' : ''},${rand() < 0.97 ? 'pass' : 'fail'},${tested},` +
      `${OPERATORS[i % OPERATORS.length]},${opts.machine ?? ''}\r\n`;
    if (buf.length > 1 << 16) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  await new Promise<void>((r) => out.end(() => r()));
  return fs.statSync(file).size;
}
