/**
 * Failed sign-in limits. The policy, and why:
 *  - per account and IP: 10 failures in 15 minutes blocks that address from that account until the window
 *    ends. A success clears it, so the real user's own typos never pile up.
 *  - per account, from anywhere: 50 failures in 15 minutes blocks the account for the rest of the window.
 *    This stops a guesser spread over many addresses; it is the only way a stranger can make a real user
 *    wait, and then for at most 15 minutes after their last burst. Success does not clear it (a guesser
 *    must not be able to reset it by watching the owner sign in).
 *  - per IP: 30 failures in 15 minutes, over all accounts (password spraying from one address).
 * Every attempt is counted before its password is checked (see attempt()), so that the limits hold under
 * parallel requests; a success is then taken back. All windows are fixed and bounded: there is no
 * escalating or indefinite lockout. Blocked requests do not run Argon2 and do not extend a window. Unknown e-mails are counted exactly like known ones, so the
 * limits reveal nothing about which accounts exist. An IPv6 client counts by its /64 (lib/client-key.ts), since
 * one subscriber usually holds a whole /64 and could otherwise rotate addresses at will.
 */
import { AppError } from '../../../shared/errors';
import { addressKey } from '../../lib/client-key';
import type { CounterStore } from '../../lib/counters';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT_IP = 10;
export const MAX_FAILURES_PER_ACCOUNT = 50;
export const MAX_FAILURES_PER_IP = 30;

function keys(email: string, ip: string) {
  const client = addressKey(ip);
  return {
    accountIp: `login:acct-ip:${email}|${client}`,
    account: `login:acct:${email}`,
    ip: `login:ip:${client}`,
  };
}

export class LoginLimiter {
  constructor(private readonly store: CounterStore) {}

  /**
   * Counts this attempt, before the password is checked, and throws 429 with the seconds to wait when it
   * goes past any limit. Counting first with an atomic increment is what makes the limits hold when many
   * guesses arrive at once: each one gets its own number, and only the first ones under the limit proceed.
   */
  async attempt(email: string, ip: string): Promise<void> {
    const k = keys(email, ip);
    const [accountIp, account, perIp] = await Promise.all([
      this.store.hit(k.accountIp, LOGIN_WINDOW_MS),
      this.store.hit(k.account, LOGIN_WINDOW_MS),
      this.store.hit(k.ip, LOGIN_WINDOW_MS),
    ]);
    const blocked = [
      accountIp.count > MAX_FAILURES_PER_ACCOUNT_IP ? accountIp.ttlMs : 0,
      account.count > MAX_FAILURES_PER_ACCOUNT ? account.ttlMs : 0,
      perIp.count > MAX_FAILURES_PER_IP ? perIp.ttlMs : 0,
    ];
    const waitMs = Math.max(...blocked);
    if (waitMs > 0) {
      throw new AppError('resource-exhausted', 'errors.tooManyLoginAttempts', {
        params: { seconds: Math.max(1, Math.ceil(waitMs / 1000)) },
      });
    }
  }

  /**
   * The attempt was right: the account+address count starts over (the owner's own typos never pile up),
   * and the attempt is taken back from the per-account and per-address counts, which only count failures.
   */
  async succeeded(email: string, ip: string): Promise<void> {
    const k = keys(email, ip);
    await Promise.all([this.store.reset(k.accountIp), this.store.undo(k.account), this.store.undo(k.ip)]);
  }
}
