/** The one check of a calendar day as the API and the forms take it (YYYY-MM-DD, UTC). */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day written YYYY-MM-DD that exists: not 2024-02-30, not 0000-00-00. Date.parse first: a string that is
 * no date would make toISOString throw, a 500 instead of a field error.
 */
export function isDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === s;
}
