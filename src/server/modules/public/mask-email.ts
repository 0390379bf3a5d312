/**
 * How a visitor's address is shown to staff: first letter of the name and of the domain, and the top-level
 * domain (`jane.doe@example.com` → `j***@e***.com`). Enough to tell requests apart on the phone with a
 * customer, not enough to write to them. Applied in the server, so the full address never reaches a staff
 * browser or CSV file.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return `${[...address][0] ?? ''}***`;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${[...local][0] ?? ''}***@${[...domain][0] ?? ''}***${tld}`;
}
