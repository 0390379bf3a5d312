/**
 * The dashboard's figures (definitions in src/shared/contract/dashboard.ts). Each is read separately, so
 * that `npm run bench -- insight` can time each one.
 */
import { openAlertCount } from '../alerts/alerts.service';
import { DASHBOARD_DAYS, DASHBOARD_RECENT, type Dashboard } from '../../../shared/contract/dashboard';
import { ORDER_DOCUMENT_TYPES } from '../../../shared/contract/orders';
import type { Executor } from '../../db/client';
import { lastReceivedAt } from '../machine-data/machine-data.service';
import { maskEmail } from '../../lib/email-address';
import { gatesOf } from '../reports/gate-batch';
import * as repo from './dashboard.repo';

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Who is looking: admins see visitors' addresses, staff a mask (as on the Searches screen). */
export interface Viewer {
  fullPersonalData: boolean;
}

/** Today (UTC) and the DASHBOARD_DAYS - 1 days before it. */
export function windowOf(now: Date): { from: string; to: string; days: string[]; start: Date; end: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (DASHBOARD_DAYS - 1) * DAY;
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => dayOf(first + i * DAY));
  return { from: days[0]!, to: days[days.length - 1]!, days, start: new Date(first), end: new Date(today + DAY) };
}

/** Each figure on its own (the bench times them one by one). */
export function figures(db: Executor, viewer: Viewer, now = new Date()) {
  const w = windowOf(now);
  return {
    requests: async (): Promise<Dashboard['requests']> => {
      const { total, days } = await repo.requestCounts(db, w.from);
      const byDay = new Map(days.map((d) => [d.day, d]));
      const perDay = w.days.map((day) => ({ day, requests: byDay.get(day)?.requests ?? 0, notFound: byDay.get(day)?.notFound ?? 0 }));
      return {
        total,
        perDay,
        windowTotal: perDay.reduce((s, d) => s + d.requests, 0),
        windowNotFound: perDay.reduce((s, d) => s + d.notFound, 0),
      };
    },
    catalogue: () => repo.catalogueCounts(db),
    lastReceivedAt: async () => (await lastReceivedAt(db))?.toISOString() ?? null,
    recentRequests: async (): Promise<Dashboard['recentRequests']> =>
      (await repo.recentRequests(db, DASHBOARD_RECENT)).map((r) => ({
        id: r.id,
        email: r.email === null ? null : viewer.fullPersonalData ? r.email : maskEmail(r.email),
        status: r.status,
        serials: Number(r.serials),
        createdAt: new Date(r.created_at).toISOString(),
      })),
    mail: () => repo.mailCounts(db),
    firstPass: () => repo.firstPass(db, w.start, w.end),
    disagreements: () => repo.disagreements(db),
    openAlerts: () => openAlertCount(db),
    // The gate needs each product's required tests (src/shared/standards, with the alternatives a standard
    // allows), which no column holds: the units' facts are read in bulk and judged by the gate itself. Each
    // order's EN 10204 type decides, as on its delivery's gate, whether materials must be traced and, for
    // an inspection certificate, whether the range must be released (orders/deliveries.service.ts).
    deliveries: async (): Promise<Dashboard['deliveries']> => {
      const awaitingRelease = await repo.deliveriesAwaitingRelease(db);
      let heldUnits = 0;
      if (awaitingRelease > 0)
        for (const type of ORDER_DOCUMENT_TYPES) {
          const gates = await gatesOf(db, repo.openDeliveryUnits(type), { documentType: type, releaseRule: true });
          for (const g of gates.values()) if (g.status !== 'pass') heldUnits += 1;
        }
      return { awaitingRelease, heldUnits };
    },
    window: { from: w.from, to: w.to },
  };
}

export async function dashboard(db: Executor, viewer: Viewer, now = new Date()): Promise<Dashboard> {
  const f = figures(db, viewer, now);
  // One after another: on PGlite there is one connection, and on PostgreSQL each is a few milliseconds.
  const requests = await f.requests();
  const catalogue = await f.catalogue();
  const last = await f.lastReceivedAt();
  const recent = await f.recentRequests();
  const mail = await f.mail();
  const firstPass = await f.firstPass();
  const disagreements = await f.disagreements();
  const deliveries = await f.deliveries();
  const openAlerts = await f.openAlerts();
  return {
    requests,
    products: catalogue.products,
    serials: { units: catalogue.units, ranges: catalogue.ranges },
    lastReceivedAt: last,
    recentRequests: recent,
    mail,
    firstPass,
    disagreements,
    deliveries,
    openAlerts,
    window: f.window,
  };
}
