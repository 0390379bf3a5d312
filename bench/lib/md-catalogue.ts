/**
 * The catalogue the generated machine-data files match (test/helpers/machine-data-csv.ts): 100 products
 * and MD_SERIES × MD_RANGES_PER_SERIES serial ranges, as the CSV files the staff imports take.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MD_RANGES_PER_SERIES, MD_SERIES } from '../../test/helpers/machine-data-csv';

export const PRODUCT_HEADER =
  'name,fluid,connection,application,applicationMedium,pressureFc,pressureWcb,pressureSus,temperatureMax,temperatureMin\r\n';
export const RANGE_HEADER = 'product,startSerial,endSerial,totalUnits,productionDate\r\n';

/** Writes `header` and `rows` lines made by `line` to `file`; answers its size in bytes. */
export async function writeLines(file: string, header: string, rows: number, line: (i: number) => string): Promise<number> {
  const out = fs.createWriteStream(file);
  out.write(header);
  let buf = '';
  for (let i = 0; i < rows; i++) {
    buf += line(i);
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((r) => out.end(() => r()));
  return fs.statSync(file).size;
}

/** The products and ranges files under `dir`, with their row counts, in the order they are imported. */
export async function writeMdCatalogue(dir: string): Promise<{ products: string; productRows: number; ranges: string; rangeRows: number }> {
  const products = path.join(dir, 'md-products.csv');
  await writeLines(products, PRODUCT_HEADER, 100, (i) => `MD Product ${String(i).padStart(3, '0')},water,,,,1.6,,,120,-10\r\n`);
  const ranges = path.join(dir, 'md-ranges.csv');
  const rangeRows = MD_SERIES * MD_RANGES_PER_SERIES;
  await writeLines(ranges, RANGE_HEADER, rangeRows, (g) => {
    const prefix = `MD${String(g % MD_SERIES).padStart(2, '0')}-`;
    const start = Math.floor(g / MD_SERIES) * 2000;
    return `MD Product ${String(g % 100).padStart(3, '0')},${prefix}${String(start).padStart(8, '0')},${prefix}${String(start + 999).padStart(8, '0')},1000,2024-01-01\r\n`;
  });
  return { products, productRows: 100, ranges, rangeRows };
}
