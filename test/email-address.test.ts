/** The inbox an address reaches (the per-recipient limit's key) and the masking of addresses in texts. */
import { describe, expect, it } from 'vitest';
import { inboxKey, maskEmail, maskEmailsIn } from '../src/server/lib/email-address';

describe('inboxKey', () => {
  it('folds case and drops a +tag', () => {
    for (const spelling of [
      'victim@example.com',
      'Victim@Example.COM',
      'victim+1@example.com',
      'VICTIM+3@example.com',
      'victim+a.b+c@example.com',
    ]) {
      expect(inboxKey(spelling), spelling).toBe('victim@example.com');
    }
  });

  it('drops the dots of providers that ignore them, and googlemail.com is gmail.com', () => {
    for (const spelling of ['v.i.c.t.i.m@gmail.com', 'vic.tim+x@GMAIL.com', 'victim@googlemail.com', 'v.ictim@googlemail.com']) {
      expect(inboxKey(spelling), spelling).toBe('victim@gmail.com');
    }
  });

  it('keeps the dots elsewhere, where they may be part of the name', () => {
    expect(inboxKey('jane.doe@example.com')).toBe('jane.doe@example.com');
    expect(inboxKey('jane.doe@example.com')).not.toBe(inboxKey('janedoe@example.com'));
  });

  it('keeps a name that starts with + (nothing before the tag to fold to)', () => {
    expect(inboxKey('+only@example.com')).toBe('+only@example.com');
  });
});

describe('maskEmailsIn', () => {
  it('masks the address an SMTP bounce quotes', () => {
    const bounce = '550 5.1.1 <jane.doe@customer.example>: Recipient address rejected: User unknown in virtual mailbox table';
    const masked = maskEmailsIn(bounce);
    expect(masked).toBe('550 5.1.1 <j***@c***.example>: Recipient address rejected: User unknown in virtual mailbox table');
    expect(masked).not.toContain('jane.doe');
    expect(masked).not.toContain('customer');
  });

  it('masks every address, bare, quoted or at the end of a sentence, and leaves other text alone', () => {
    const text = `EENVELOPE: No recipients defined; "bob@x.org", RCPT TO:<alice+tag@mail.example.net>. Also carol@example.com.`;
    expect(maskEmailsIn(text)).toBe(`EENVELOPE: No recipients defined; "b***@x***.org", RCPT TO:<a***@m***.net>. Also c***@e***.com.`);
    expect(maskEmailsIn('connect ETIMEDOUT 203.0.113.25:25')).toBe('connect ETIMEDOUT 203.0.113.25:25');
    expect(maskEmailsIn(null)).toBeNull();
  });

  it('is idempotent: a masked text stays as it is', () => {
    const once = maskEmailsIn('550 <jane@example.com> unknown');
    expect(maskEmailsIn(once)).toBe(once);
    expect(once).toBe(`550 <${maskEmail('jane@example.com')}> unknown`);
  });
});
