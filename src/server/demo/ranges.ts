/**
 * Serial-number ranges as production assigns them: one series per valve type and size (`GV50-`), numbers
 * handed out in order, a batch of 50 to 1,000 units per range, now and then a gap (numbers not yet
 * assigned, so that some lookups find nothing), production dates spread evenly over the span. Each range
 * names its body material (the one the product's name says), which chooses the rating its units carry.
 */
import { formatSerial } from '../../shared/serial';
import type { BodyMaterial } from '../../shared/standards/requirement';
import type { GeneratedProduct } from './products';
import type { Random } from './random';

export interface GeneratedRange {
  index: number;
  product: number;
  prefix: string;
  width: number;
  start: number;
  end: number;
  /** YYYY-MM-DD */
  productionDate: string;
  bodyMaterial: BodyMaterial;
}

const DAY = 86_400_000;

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Days between the last range's production and today: its units are still being tested until then. */
export const TESTING_DAYS = 5;

/**
 * The ranges in production order; `today` is the UTC midnight the span (and then TESTING_DAYS) ends before.
 * A range holds `step` × 1 to 20 units (50: 50 to 1,000).
 */
export function* generateRanges(
  r: Random,
  products: GeneratedProduct[],
  count: number,
  days: number,
  today: number,
  step = 50,
): Generator<GeneratedRange> {
  const width = count > 10_000 ? 8 : 6;
  const next = new Map<string, number>();
  const first = today - (days + TESTING_DAYS) * DAY;
  for (let i = 0; i < count; i++) {
    const product = r.int(0, products.length - 1);
    const day = first + Math.floor((i * days) / count) * DAY;
    // Not the year: a series that does not depend on today keeps the same serials in every run of a seed.
    const prefix = `${products[product]!.type.code}${products[product]!.dn}-`;
    const start = next.get(prefix) ?? 1;
    const units = step * r.int(1, 20);
    const gap = r.chance(0.3) ? r.int(10, 500) : 0;
    next.set(prefix, start + units + gap);
    yield {
      index: i,
      product,
      prefix,
      width,
      start,
      end: start + units - 1,
      productionDate: dayOf(day),
      bodyMaterial: products[product]!.material,
    };
  }
}

export const serialOf = (range: Pick<GeneratedRange, 'prefix' | 'width'>, n: number) =>
  formatSerial({ prefix: range.prefix, width: range.width, number: BigInt(n) });
