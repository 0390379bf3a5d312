/**
 * Visitors' addresses as staff see them and as the limits count them.
 *
 * maskEmail: first letter of the name and of the domain, and the top-level domain (`jane.doe@example.com` →
 * `j***@e***.com`). Enough to tell requests apart on the phone with a customer, not enough to write to them.
 * Applied in the server, so the full address never reaches a staff browser or CSV file.
 *
 * maskEmailsIn: the same for every address inside a text, such as an SMTP server's bounce (`550 5.1.1
 * <jane.doe@customer.example>: User unknown`), which the outbox stores as the delivery's last error.
 *
 * inboxKey: which mailbox an address reaches, for the per-recipient limit only (the mail itself goes to the
 * address as typed): lower case, without a `+tag`, and without the dots of providers that ignore them.
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

// Anything that can sit in an address up to the delimiters SMTP replies put around one (<>, quotes, spaces,
// brackets, commas, semicolons). Broad on purpose: masking a word that only looks like an address costs
// nothing, leaving an address readable is the leak. 0011_abuse_rules.sql scrubs stored rows with the same set.
const ADDRESS_IN_TEXT = /[^\s<>"'(),;:[\]@]+@[^\s<>"'(),;:[\]@]+/g;

/** `text` with every email address in it masked (maskEmail); null stays null. */
export function maskEmailsIn<T extends string | null>(text: T): T {
  if (text === null) return text;
  // A full stop after an address ends the sentence; it stays after the mask.
  return text.replace(ADDRESS_IN_TEXT, (found) => {
    const address = found.replace(/\.+$/, '');
    return maskEmail(address) + found.slice(address.length);
  }) as T;
}

/** Providers known to deliver `j.a.n.e@` to `jane@`; others may treat dots as part of the name. */
const DOTLESS_PROVIDERS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches: `Victim+3@Example.com` → `victim@example.com`, `v.i.c.t.i.m@gmail.com` →
 * `victim@gmail.com`. Only for counting: providers differ in what they ignore, so two keys that differ may
 * still be one inbox, never the other way round for the common ones.
 */
export function inboxKey(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1).replace(/\.+$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_PROVIDERS[domain];
  if (dotless) {
    local = local.replace(/\./g, '');
    domain = dotless;
  }
  return `${local}@${domain}`;
}
