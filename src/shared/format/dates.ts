/**
 * Dates and numbers as every screen, email and PDF prints them, in the reader's language (decision record
 * docs/decisions/0024-polish-dates-vocabulary-sorting.md):
 *   en: 24 Nov 2026 · 24 Nov 2026, 14:05 · 24 Nov        zh: 2026年11月24日 · 2026年11月24日 14:05 · 11月24日
 * Built from numeric parts rather than a locale's medium style, so a browser and Node print the same text.
 * Times use the 24-hour clock. `timeZone` defaults to the runtime's (the browser's); reports pass 'UTC'.
 */

export type FormatLanguage = 'en' | 'zh' | (string & {});

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The Intl locale of an interface language (numbers; dates are built by hand below). */
export function intlLocale(language: FormatLanguage): string {
  return language === 'zh' ? 'zh-TW' : 'en-GB';
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar parts of an instant. The runtime's own zone and UTC are read from the Date itself, which
 * is what Intl would answer: a phone's first Intl formatter costs tens of milliseconds (its locale data),
 * inside the task that draws a screen's first dates. Other zones, and years outside 1–9999, ask Intl.
 */
function partsOf(d: Date, timeZone?: string): Parts {
  if (timeZone === undefined || timeZone === 'UTC') {
    const utc = timeZone === 'UTC';
    const year = utc ? d.getUTCFullYear() : d.getFullYear();
    if (year >= 1 && year <= 9999) {
      return utc
        ? { year, month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() }
        : { year, month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes() };
    }
  }
  return partsByIntl(d, timeZone);
}

function partsByIntl(d: Date, timeZone?: string): Parts {
  const key = timeZone ?? '';
  let f = partFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    partFormats.set(key, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(d)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour! % 24, minute: out.minute! };
}

function toDate(value: Date | string | number): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const pad = (n: number) => String(n).padStart(2, '0');

function dayText(language: FormatLanguage, p: Pick<Parts, 'year' | 'month' | 'day'>): string {
  return language === 'zh' ? `${p.year}年${p.month}月${p.day}日` : `${p.day} ${EN_MONTHS[p.month - 1]} ${p.year}`;
}

/** A `YYYY-MM-DD` calendar date (a production date, a chart's day) as written, without shifting its day. */
export function formatDay(language: FormatLanguage, ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(ymd);
  if (!m) return ymd;
  return dayText(language, { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
}

/** A `YYYY-MM-DD` day without its year, for chart axes: "24 Nov" / "11月24日". */
export function formatShortDay(language: FormatLanguage, ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(ymd);
  if (!m) return ymd;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return language === 'zh' ? `${month}月${day}日` : `${day} ${EN_MONTHS[month - 1]}`;
}

/** The calendar date of an instant in `timeZone` (default: the runtime's). */
export function formatDate(language: FormatLanguage, value: Date | string | number, timeZone?: string): string {
  const d = toDate(value);
  return d ? dayText(language, partsOf(d, timeZone)) : String(value);
}

/** An instant with its time of day (24-hour) in `timeZone` (default: the runtime's). */
export function formatDateTime(language: FormatLanguage, value: Date | string | number, timeZone?: string): string {
  const d = toDate(value);
  if (!d) return String(value);
  const p = partsOf(d, timeZone);
  const time = `${pad(p.hour)}:${pad(p.minute)}`;
  return language === 'zh' ? `${dayText(language, p)} ${time}` : `${dayText(language, p)}, ${time}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Intl's formatter, for what the hand-made one below leaves to it (NaN, infinities, exponents). */
function numberFormat(language: FormatLanguage, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}:${options.style ?? ''}:${options.minimumFractionDigits ?? ''}:${options.maximumFractionDigits ?? ''}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlLocale(language), options);
    numberFormats.set(key, f);
  }
  return f;
}

/**
 * A decimal as Intl.NumberFormat prints it in en-GB and zh-TW, which agree: `,` between thousands, `.`
 * before decimals, the sign kept on a negative that rounds to 0. Written by hand because a phone spends
 * about 30 ms making its first Intl.NumberFormat (its locale data), inside the task that draws a screen's
 * first figures. Like ICU it rounds the shortest decimal that reads back as the number (String(n)), half
 * away from zero, after moving the point `shift` places (2 for a percentage); null where String(n) has an
 * exponent (below 1e-6 or from 1e21), which Intl then prints. test/format-and-natural-sort.test.ts compares
 * the two over many numbers.
 */
function decimalText(n: number, minDecimals: number, maxDecimals: number, shift: number): string | null {
  const text = String(Math.abs(n));
  if (!Number.isFinite(n) || text.includes('e')) return null;
  const dot = text.indexOf('.');
  let digits = dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1);
  let point = (dot < 0 ? text.length : dot) + shift;
  // Enough digits to the right of the point to round at maxDecimals (String(n) has one left of it already).
  while (digits.length < point + maxDecimals + 1) digits += '0';
  let kept = digits.slice(0, point + maxDecimals);
  if (digits.charCodeAt(point + maxDecimals) >= 53 /* '5' */) {
    const carried = (BigInt(kept) + 1n).toString().padStart(kept.length, '0');
    if (carried.length > kept.length) point += 1;
    kept = carried;
  }
  let whole = kept.slice(0, point).replace(/^0+(?=\d)/, '');
  let decimals = kept.slice(point);
  while (decimals.length > minDecimals && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
  whole = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  const negative = n < 0 || Object.is(n, -0);
  return `${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}`;
}

/** A number with grouping and `minDecimals` to `maxDecimals` decimals: 1,234.5 in both languages. */
export function formatNumber(language: FormatLanguage, n: number, maxDecimals = 3, minDecimals = 0): string {
  return (
    decimalText(n, minDecimals, maxDecimals, 0) ??
    numberFormat(language, { minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals }).format(n)
  );
}

/** A share (0–1) as a percentage with `decimals` decimals. */
export function formatPercent(language: FormatLanguage, share: number, decimals = 1): string {
  const text = decimalText(share, decimals, decimals, 2);
  if (text !== null) return `${text}%`;
  return numberFormat(language, {
    style: 'percent',
    maximumFractionDigits: decimals,
    minimumFractionDigits: decimals,
  }).format(share);
}

const MONTHS_BY_NAME = new Map(EN_MONTHS.map((m, i) => [m.toLowerCase(), i + 1]));

function ymd(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

/**
 * A typed date back to `YYYY-MM-DD`, or null: what formatDay writes in either language ("24 Nov 2026",
 * "2026年11月24日"), ISO ("2026-11-24") and "2026/11/24", "Nov 24, 2026" and full month names.
 */
export function parseDay(text: string): string | null {
  const s = text.trim().replace(/\s+/g, ' ');
  let m = /^(\d{4}) ?[-/.年] ?(\d{1,2}) ?[-/.月] ?(\d{1,2}) ?日?$/.exec(s);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  const month = (name: string) => MONTHS_BY_NAME.get(name.slice(0, 3).toLowerCase());
  m = /^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/.exec(s);
  if (m && month(m[2]!)) return ymd(Number(m[3]), month(m[2]!)!, Number(m[1]));
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m && month(m[1]!)) return ymd(Number(m[3]), month(m[1]!)!, Number(m[2]));
  return null;
}
