/**
 * A unit's identification link (IEC 61406-1 "Identification Link"; docs/decisions/0061-identification-link.md):
 * `<PUBLIC_BASE_URL>/id/<serial>`, or, for a product with a GTIN, the GS1 Digital Link
 * `<PUBLIC_BASE_URL>/01/<GTIN-14>/21/<serial>` (docs/decisions/0062-gs1-digital-link.md): what a nameplate's
 * QR code carries for good. Its shape never depends on a report, a product's name or a screen's route: a
 * browser is sent on to the public page, a machine asking for `application/linkset+json` reads the unit's
 * links (RFC 9264).
 */
import { normaliseGtin } from './gtin';
import { normaliseSerial } from './serial';

export const IDENTIFICATION_PREFIX = '/id/';
/** GS1 Digital Link's path of a serialised trade item: AI 01 (the GTIN), then AI 21 (the serial). */
export const GTIN_PREFIX = '/01/';
export const SERIAL_QUALIFIER = '/21/';

/** The public address without trailing slashes: what every public link is built on. */
export function originOf(publicBaseUrl: string): string {
  return publicBaseUrl.replace(/\/+$/, '');
}

/**
 * The identification link of `serial` (canonical, as ranges print it) on the public address `publicBaseUrl`;
 * with the product's `gtin`, its GS1 Digital Link.
 *
 * In `/id/`, a slash of the serial stays a slash: `%2F` in a path is refused by some proxies (Apache's
 * default), and a serial ends in digits, so the path cannot be read two ways. A Digital Link would have to
 * write it `%2F` (a slash there separates an AI from its value), so a serial with a slash keeps its `/id/`
 * link even when its product has a GTIN: a link that every proxy passes and that no GS1 parser misreads.
 */
export function identificationLink(publicBaseUrl: string, serial: string, gtin?: string | null): string {
  const canonical = normaliseSerial(serial);
  const gtin14 = gtin ? normaliseGtin(gtin) : null;
  if (gtin14 && !canonical.includes('/'))
    return `${originOf(publicBaseUrl)}${GTIN_PREFIX}${gtin14}${SERIAL_QUALIFIER}${encodeURIComponent(canonical)}`;
  const path = canonical.split('/').map(encodeURIComponent).join('/');
  return `${originOf(publicBaseUrl)}${IDENTIFICATION_PREFIX}${path}`;
}
