/**
 * Whether a looked-up unit's test report can be sent now, which the public page says at once rather than
 * after the terms and the email. The lookup's own answer is kept until the catalogue changes; this one
 * changes with test records and releases, which arrive by the thousand, so it is kept per serial for a few
 * seconds instead: a unit released a moment ago may still read "not yet" for that long. The request itself
 * always decides on the current data.
 */
import type { Db } from '../../db/client';
import { gatesOf, serialUnits } from '../reports/gate-batch';

export const AVAILABILITY_CACHE = { ttlMs: 10_000, maxEntries: 20_000 };

export class CertificateAvailability {
  private readonly entries = new Map<string, { at: number; available: boolean }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async available(serial: string): Promise<boolean> {
    const kept = this.entries.get(serial);
    if (kept && this.now() - kept.at < AVAILABILITY_CACHE.ttlMs) return kept.available;
    // The gate a request would meet: the Settings' document type, with the inspector's release where it asks one.
    const gate = (await gatesOf(this.db, serialUnits([serial]), { releaseRule: true })).get(serial);
    const available = gate?.status === 'pass';
    if (this.entries.size >= AVAILABILITY_CACHE.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(serial);
    this.entries.set(serial, { at: this.now(), available });
    return available;
  }

  /** Forgets every answer (a test's or a staff action's changes seen at once on this instance). */
  clear(): void {
    this.entries.clear();
  }
}

/** The lookup's cached answer `{"data":{…}}` with the unit's state added inside `data`. */
export function withCertificateState(body: string, available: boolean): string {
  return `${body.slice(0, -2)},"certificate":"${available ? 'available' : 'not-yet'}"}}`;
}
