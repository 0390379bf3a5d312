/**
 * The text and date fields of the orders' schemas (orders.ts), of a delivery's witness (witness.ts) and of the
 * company's address (settings.ts): one line of printable text, text that may span lines, a postcode, city and
 * country, and a calendar date.
 */
import { z } from 'zod';
import { optionalText, requiredText } from './common';
import { LINE_BREAK, noLineBreak, printable } from './products';
import { isDay } from './days';

export const line = (max: number) => requiredText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });
export const optionalLine = (max: number) =>
  optionalText(max).refine(noLineBreak, LINE_BREAK).refine(printable, { error: 'validation.invalid' });
/** Text that may span lines: newlines and tabs are fine, other control characters are not. */
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const multiline = (max: number) => optionalText(max).refine((s) => !CONTROL_BUT_LINES.test(s), { error: 'validation.invalid' });
export const POSTCODE_MAX = 20;
export const CITY_MAX = 100;
/** A country as ISO 3166-1 alpha-2, upper-cased; empty when not known. */
export const countryCode = () =>
  z
    .string({ error: 'validation.invalid' })
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{2})?$/, { error: 'orders.validation.country' })
    .default('');
/** An ISO date (YYYY-MM-DD) that exists in the calendar. */
export const isoDate = () => z.string({ error: 'validation.required' }).trim().refine(isDay, { error: 'validation.date' });
