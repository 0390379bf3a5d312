/**
 * Whether a looked-up unit's test report can be sent now, which the public page says at once rather than
 * after the terms and the email. The lookup's own answer is kept until the catalogue changes; this one
 * changes with test records, releases and heats, so it is kept per serial for TTL and then refreshed after
 * the answer (stale while it is read again): a serial's first lookup on an instance pays for its release
 * gate, later ones never wait for it. A unit released a moment ago may thus read "not yet" for up to TTL and
 * one lookup more; the request itself always decides on the current data.
 */
import type { Db } from '../../db/client';
import type { AfterResponse } from '../../lib/after-response';
import { gatesOf, serialUnits } from '../reports/gate-batch';

export const AVAILABILITY_CACHE = { ttlMs: 30_000, maxEntries: 20_000, refreshesAtOnce: 2 };

export class CertificateAvailability {
  private readonly entries = new Map<string, { at: number; available: boolean }>();
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly afterResponse: AfterResponse,
    private readonly now: () => number = Date.now,
  ) {}

  async available(serial: string): Promise<boolean> {
    const kept = this.entries.get(serial);
    if (!kept) return this.read(serial);
    if (this.now() - kept.at >= AVAILABILITY_CACHE.ttlMs) this.refresh(serial);
    return kept.available;
  }

  /** Every refresh started so far, finished (for tests). */
  async settled(): Promise<void> {
    await Promise.all(this.refreshing.values());
  }

  private async read(serial: string): Promise<boolean> {
    // The gate a request would meet: the Settings' document type, with the inspector's release where it asks one.
    const gate = (await gatesOf(this.db, serialUnits([serial]), { releaseRule: true })).get(serial);
    const available = gate?.status === 'pass';
    if (this.entries.size >= AVAILABILITY_CACHE.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(serial);
    this.entries.set(serial, { at: this.now(), available });
    return available;
  }

  /** After the answer, a few at a time: a burst of stale serials waits for the next lookups, not the database. */
  private refresh(serial: string): void {
    if (this.refreshing.has(serial) || this.refreshing.size >= AVAILABILITY_CACHE.refreshesAtOnce) return;
    const done = new Promise<void>((resolve) => {
      this.afterResponse.run('refreshing the report state of a lookup', async () => {
        try {
          await this.read(serial);
        } finally {
          this.refreshing.delete(serial);
          resolve();
        }
      });
    });
    this.refreshing.set(serial, done);
  }
}

/** The lookup's cached answer `{"data":{…}}` with the unit's state added inside `data`. */
export function withCertificateState(body: string, available: boolean): string {
  return `${body.slice(0, -2)},"certificate":"${available ? 'available' : 'not-yet'}"}}`;
}
