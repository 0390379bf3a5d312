/**
 * What the log warns about at start in production (NODE_ENV=production): settings whose default only
 * suits a developer's machine and which the server would otherwise use without a word.
 */
import { DEFAULT_MAIL_FROM, type Config } from './config';

/** The address part of a From header: `Name <a@b>` or a bare `a@b`. */
function addressOf(from: string): string {
  return (/<([^>]*)>\s*$/.exec(from)?.[1] ?? from).trim();
}

const LOCAL_DOMAIN =
  /^(localhost|localhost\.localdomain|[^.]+|.*\.(localhost|local|localdomain|internal|invalid|example|test)|127(\.\d+){3}|\[[^\]]*\])$/i;

/**
 * Why MAIL_FROM would not do for mail that leaves the building, or null: unset (the default's
 * no-reply@localhost), or an address at localhost or another name no receiving server can check.
 */
export function mailFromProblem(mailFrom: string): string | null {
  const example = 'set MAIL_FROM to an address of the company\'s domain, e.g. MAIL_FROM="Formosa Flow Valves <reports@example.com>"';
  if (mailFrom === DEFAULT_MAIL_FROM) {
    return `MAIL_FROM is not set: report emails go out from ${addressOf(mailFrom)}, which receiving servers reject or file as spam; ${example}`;
  }
  const address = addressOf(mailFrom);
  const at = address.lastIndexOf('@');
  if (at < 1) return `MAIL_FROM=${JSON.stringify(mailFrom)} holds no email address; ${example}`;
  const domain = address.slice(at + 1);
  if (LOCAL_DOMAIN.test(domain)) {
    return `MAIL_FROM=${JSON.stringify(mailFrom)} sends from ${domain}, a name only this network knows: receiving servers reject or file such mail as spam; ${example}`;
  }
  return null;
}

/** The warnings to write at start: none outside production. */
export function startWarnings(config: Pick<Config, 'production' | 'mailFrom'>): string[] {
  if (!config.production) return [];
  return [mailFromProblem(config.mailFrom)].filter((w): w is string => w !== null);
}
