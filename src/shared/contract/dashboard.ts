/**
 * The staff dashboard (docs/product.md §3): the original's five metrics and, beside them, requests per day, the
 * share of not-found lookups, the mail queue and the test data's first-pass yield. Definitions:
 *
 * - A request is one public request: a report request (one email for one or more serials) or a lookup that
 *   found nothing (found lookups are not recorded). Days are UTC days.
 * - Serial numbers: the units in all ranges (sum of their Total Units) and the number of ranges.
 * - First-pass yield: of the units first tested in the last DASHBOARD_DAYS days (their first test of any
 *   type), the share whose first attempt of every test type passed, over all their tests (see
 *   docs/decisions: dashboard first-pass yield; the quality screen counts first attempts inside its range).
 * - Emails: report and account mail waiting to be sent now (queued or being sent), and mail that failed
 *   for good.
 * - Deliveries awaiting release: open deliveries with at least one unit. Held units: the units of open
 *   deliveries the release gate holds (a test failed or missing, or no test data), as the delivery's
 *   `GET /api/v1/deliveries/{id}/gate` counts them.
 */
import { z } from 'zod';
import { envelope } from './common';
import { SEARCH_STATUSES } from './searches';

export { DASHBOARD_DAYS, DASHBOARD_RECENT } from './dashboard-window';

export const dashboardRecentRequest = z.object({
  /** the request's group id (the Searches screen's request id) */
  id: z.string(),
  /** masked for staff, in full for admins (as on the Searches screen) */
  email: z.string().nullable(),
  status: z.enum(SEARCH_STATUSES),
  serials: z.number().int(),
  createdAt: z.string(),
});
export type DashboardRecentRequest = z.infer<typeof dashboardRecentRequest>;

export const dashboard = z.object({
  requests: z.object({
    total: z.number().int(),
    /** DASHBOARD_DAYS entries, oldest first, days without requests included (0) */
    perDay: z.array(z.object({ day: z.string(), requests: z.number().int(), notFound: z.number().int() })),
    /** over the window */
    windowTotal: z.number().int(),
    windowNotFound: z.number().int(),
  }),
  products: z.number().int(),
  serials: z.object({ units: z.number().int(), ranges: z.number().int() }),
  lastReceivedAt: z.string().nullable(),
  recentRequests: z.array(dashboardRecentRequest),
  mail: z.object({ queued: z.number().int(), failed: z.number().int() }),
  firstPass: z.object({ units: z.number().int(), firstPass: z.number().int() }),
  /** units whose latest test of some type passed on the bench but does not conform to the product's standard */
  disagreements: z.number().int(),
  deliveries: z.object({ awaitingRelease: z.number().int(), heldUnits: z.number().int() }),
  /** quality alerts not yet acknowledged (docs/decisions/0065-quality-alerts.md) */
  openAlerts: z.number().int(),
  /** the window's first day and today (UTC), both included */
  window: z.object({ from: z.string(), to: z.string() }),
});
export type Dashboard = z.infer<typeof dashboard>;
export const dashboardEnvelope = envelope(dashboard);
