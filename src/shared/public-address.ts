/**
 * Whether the links the product prints (labels' QR codes, certificates' verification, emails) point at this
 * machine only: PUBLIC_BASE_URL unset (its default is http://localhost:PORT) or set to a loopback name. A label
 * riveted to a valve with such a link can never be verified; staff are warned before they print one.
 */
export function isLocalAddress(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '0.0.0.0' ||
    host === '::1' ||
    host === '::' ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}
