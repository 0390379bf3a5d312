/**
 * A unit's identification link (IEC 61406-1 "Identification Link"; docs/decisions/0061-identification-link.md):
 * `<PUBLIC_BASE_URL>/id/<serial>`, what a nameplate's QR code carries for good. Its shape never depends on
 * a report, a product's name or a screen's route: a browser is sent on to the public page, a machine
 * asking for `application/linkset+json` reads the unit's links (RFC 9264).
 */
import { normaliseSerial } from './serial';

export const IDENTIFICATION_PREFIX = '/id/';

/**
 * The identification link of `serial` (canonical, as ranges print it) on the public address `publicBaseUrl`.
 * A slash of the serial stays a slash: `%2F` in a path is refused by some proxies (Apache's default), and a
 * serial ends in digits, so the path cannot be read two ways.
 */
export function identificationLink(publicBaseUrl: string, serial: string): string {
  const path = normaliseSerial(serial).split('/').map(encodeURIComponent).join('/');
  return `${publicBaseUrl.replace(/\/+$/, '')}${IDENTIFICATION_PREFIX}${path}`;
}
