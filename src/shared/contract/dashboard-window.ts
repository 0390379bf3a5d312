/**
 * The dashboard's window, apart from its schemas (dashboard.ts re-exports it): the dashboard's screen reads
 * it without building the contract's schemas.
 */

/** The window of the chart, the not-found share and the first-pass yield: today and the 29 days before. */
export const DASHBOARD_DAYS = 30;
/** How many of the newest report requests are listed. */
export const DASHBOARD_RECENT = 5;
