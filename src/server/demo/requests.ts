/**
 * Public search requests as customers make them over the last weeks: report requests for serials they
 * received (mostly sent; a few deliveries failed), in English and Chinese, and lookups of serials that do
 * not exist (mistyped, or not yet assigned). Rows shaped as the public request service and the not-found
 * recorder write them.
 */
import { randomUUID } from 'node:crypto';
import type { NewSearchRequest } from '../db/schema/index';
import type { Random } from './random';
import { maskEmailsIn } from '../lib/email-address';

const DOMAINS = [
  'petrochem-asia.com',
  'harbourwater.com.au',
  'steelworks.co.jp',
  'cnpower.com.cn',
  'gulf-refining.ae',
  'tw-waterworks.gov.tw',
  'nordic-heat.se',
  'example-epc.com',
];
const MAILBOXES = ['qa', 'purchasing', 'inspection', 'j.wang', 'm.chen', 'site.engineer', 'docs', 'l.garcia'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
];
const FAILURES = [
  '550 5.1.1 <{to}>: Recipient address rejected: User unknown in virtual mailbox table',
  '552 5.3.4 Message size exceeds fixed limit',
  'connect ETIMEDOUT 203.0.113.25:25',
];

export interface RequestPlan {
  count: number;
  days: number;
  now: number;
  /** serials of tested units to ask for */
  serials: string[];
}

/** A serial that looks like one of ours but is not assigned: a digit too many, or far beyond the series. */
function missingSerial(r: Random, known: string): string {
  const dash = known.indexOf('-');
  return r.chance(0.5) ? `${known}${r.int(0, 9)}` : `${known.slice(0, dash + 1)}9${known.slice(dash + 2)}`;
}

/**
 * The rows in groups (a request for several serials is one group), oldest first, `plan.count` of them. A
 * group takes its time by the rows before and in it, so the requests run evenly up to `plan.now`: the
 * last one falls within one step (days / count) before it.
 */
export function* generateRequests(r: Random, plan: RequestPlan): Generator<NewSearchRequest> {
  const span = plan.days * 86_400_000;
  const at = (rowsThrough: number) => new Date(plan.now - span + Math.floor(((rowsThrough - r()) * span) / plan.count));
  let made = 0;
  while (made < plan.count) {
    const language = r.chance(0.4) ? 'zh' : 'en';
    const meta = {
      clientIp: `${r.int(11, 223)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
      userAgent: r.pick(AGENTS),
      language,
    } as const;
    const known = r.pick(plan.serials);
    if (r.chance(0.12)) {
      const id = randomUUID();
      yield { id, groupId: id, source: 'lookup', serial: missingSerial(r, known), status: 'not-found', createdAt: at(made + 1), ...meta };
      made++;
      continue;
    }
    const groupId = randomUUID();
    const to = `${r.pick(MAILBOXES)}@${r.pick(DOMAINS)}`;
    const size = Math.min(plan.count - made, r.chance(0.8) ? 1 : r.int(2, 4));
    const createdAt = at(made + size);
    const failed = r.chance(0.03);
    const recent = plan.now - createdAt.getTime() < 120_000;
    for (let k = 0; k < size; k++) {
      const missing = k > 0 && r.chance(0.1);
      const serial = k === 0 ? known : missing ? missingSerial(r, known) : r.pick(plan.serials);
      const base = {
        groupId,
        source: 'request',
        serial,
        recipientEmail: to,
        termsAgreedAt: createdAt,
        termsVersion: 1,
        createdAt,
        ...meta,
      } as const;
      if (missing) yield { ...base, status: 'not-found' };
      else if (failed) yield { ...base, status: 'failed', attempts: 5, lastError: maskEmailsIn(r.pick(FAILURES).replace('{to}', to)) };
      else if (recent) yield { ...base, status: 'queued' };
      else yield { ...base, status: 'sent', attempts: 1, sentAt: new Date(createdAt.getTime() + r.int(2, 40) * 1000) };
      made++;
    }
  }
}
