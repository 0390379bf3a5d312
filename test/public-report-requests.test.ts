/**
 * The report request end to end against a real SMTP server and the real outbox worker: lookup, solved
 * challenge, request, the email with the PDF attached and named right (en and zh), the request following
 * its email; held units and units without data; several serials in one email; validation.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBackgroundWork } from '../src/server/background';
import { mailOutbox, reports, searchRequests } from '../src/server/db/schema/index';
import { buildTestApp, type TestApp } from './helpers/app';
import { catalogue, lookup, postRequest, requestBody, testData } from './helpers/public';
import { startSmtpSink, type ReceivedMessage, type SmtpSink } from './helpers/smtp-sink';
import { poppler, tmpFile } from './helpers/reports';

// Real SMTP, PDFs and solved challenges on a two-core machine shared with other work: generous timeouts.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let sink: SmtpSink;
let t: TestApp;
let stopBackground: () => Promise<void>;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url, PUBLIC_BASE_URL: 'https://reports.example.com' });
  stopBackground = await startBackgroundWork(t.app);
});
afterAll(async () => {
  await stopBackground();
  await t.close();
  await sink.close();
});

const rowsOfGroup = (groupId: string) => t.app.ctx.db.select().from(searchRequests).where(eq(searchRequests.groupId, groupId));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function mailTo(address: string): Promise<ReceivedMessage> {
  return vi.waitFor(
    () => {
      const m = sink.messages.find((x) => x.to.includes(address));
      if (!m) throw new Error(`no mail to ${address} yet`);
      return m;
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('one serial', () => {
  it.each(['en', 'zh'] as const)(
    'issues the report, emails it as test-report-<serial>.pdf in %s, and the request turns sent',
    async (language) => {
      const c = await catalogue(t);
      const serial = c.serial(12);
      await testData(t, serial);
      expect((await lookup(t.app, serial)).json().data.product.name).toBe(c.productName);

      const body = requestBody({ serial: serial.toLowerCase(), language });
      const res = await postRequest(t.app, body, { headers: { 'accept-language': language } });
      if (res.statusCode !== 200) console.log(res.body);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.emailQueued).toBe(true);
      expect(data.message).toBe(language === 'en' ? 'Search successfully' : '查詢成功');
      expect(data.results).toHaveLength(1);
      const [result] = data.results;
      expect(result).toMatchObject({ serial, outcome: 'issued', product: c.productName });
      expect(result.pdfPath).toBe(`/api/v1/public/reports/${result.reportId}.pdf`);

      const mail = await mailTo(body.email as string);
      const parsed = mail.parsed!;
      expect(parsed.subject).toContain(serial);
      if (language === 'zh') {
        expect(parsed.subject).toMatch(/[\u4e00-\u9fff]/);
        expect(parsed.text).toContain('測試報告');
      } else {
        expect(parsed.subject).toBe(`Test report ${serial}`);
      }
      // Nothing the visitor typed but the serial: the address is the recipient only.
      expect(parsed.text).not.toContain(body.email as string);
      expect(parsed.attachments).toHaveLength(1);
      const attachment = parsed.attachments[0]!;
      expect(attachment.filename).toBe(`test-report-${serial}.pdf`);
      expect(attachment.mimeType).toBe('application/pdf');
      const pdf = Buffer.from(attachment.content as ArrayBuffer);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const [stored] = await t.app.ctx.db.select().from(reports).where(eq(reports.id, result.reportId));
      expect(stored!.language).toBe(language);
      expect(sha256(pdf)).toBe(Buffer.from(stored!.sha256).toString('hex'));
      const preview = await t.app.inject({ url: result.pdfPath });
      if (preview.statusCode === 200) expect(sha256(preview.rawPayload)).toBe(sha256(pdf));

      await vi.waitFor(async () => expect((await rowsOfGroup(data.requestId))[0]!.status).toBe('sent'), { timeout: 10_000, interval: 50 });
      const [row] = await rowsOfGroup(data.requestId);
      expect(row).toMatchObject({
        source: 'request',
        serial,
        recipientEmail: body.email,
        language,
        status: 'sent',
        attempts: 1,
        lastError: null,
        reportId: result.reportId,
      });
      expect(row!.sentAt).toBeInstanceOf(Date);
      expect(row!.termsAgreedAt).toBeInstanceOf(Date);
    },
  );

  it('a unit held by the release gate: "not available, contact the manufacturer", no email, held for staff', async () => {
    const c = await catalogue(t);
    const serial = c.serial(3);
    await testData(t, serial, { seat: 'fail' });
    const body = requestBody({ serial });
    const res = await postRequest(t.app, body);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.emailQueued).toBe(false);
    expect(data.results).toEqual([
      {
        serial,
        outcome: 'held',
        message: 'The test report is not available; please contact the manufacturer',
        product: c.productName,
        reportId: null,
        pdfPath: null,
      },
    ]);
    expect(JSON.stringify(data)).not.toMatch(/fail|seat|shell|no data/i);
    const rows = await rowsOfGroup(data.requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'held', outboxId: null, reportId: null });
    expect(
      await t.app.ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, body.email as string)),
    ).toHaveLength(0);
  });

  it('a unit without test data answers the same as a held one (and its product still shows in the lookup)', async () => {
    const c = await catalogue(t);
    const serial = c.serial(4);
    expect((await lookup(t.app, serial)).statusCode).toBe(200);
    const res = await postRequest(t.app, requestBody({ serial }));
    expect(res.json().data.results[0]).toMatchObject({
      outcome: 'held',
      message: 'The test report is not available; please contact the manufacturer',
    });
    expect((await rowsOfGroup(res.json().data.requestId))[0]!.status).toBe('held');
  });
});

describe('the bilingual certificate', () => {
  it('is the certificate with both languages side by side, under the number the other renderings share; the email stays in the visitor language', async () => {
    const c = await catalogue(t);
    const serial = c.serial(14);
    await testData(t, serial);
    const body = requestBody({ serial, language: 'en', bilingual: true });
    const res = await postRequest(t.app, body);
    expect(res.statusCode).toBe(200);
    const [result] = res.json().data.results;
    expect(result).toMatchObject({ serial, outcome: 'issued' });
    const [stored] = await t.app.ctx.db.select().from(reports).where(eq(reports.id, result.reportId));
    expect(stored!.language).toBe('bilingual');
    const mail = await mailTo(body.email as string);
    expect(mail.parsed!.subject).toBe(`Test report ${serial}`);
    const pdf = Buffer.from(mail.parsed!.attachments[0]!.content as ArrayBuffer);
    expect(sha256(pdf)).toBe(Buffer.from(stored!.sha256).toString('hex'));
    const text = poppler('pdftotext', [tmpFile(pdf, 'bilingual.pdf'), '-']);
    expect(text).toContain('序號 Serial');
    // The English rendering asked for later takes the same number.
    const en = await postRequest(t.app, requestBody({ serial, language: 'en' }));
    const [english] = await t.app.ctx.db.select().from(reports).where(eq(reports.id, en.json().data.results[0].reportId));
    expect([english!.language, english!.number]).toEqual(['en', stored!.number]);
    // Not a yes or no: a field error.
    const bad = await postRequest(t.app, requestBody({ serial, bilingual: 'yes' }));
    expect(bad.statusCode).toBe(400);
  });
});

describe('several serials at once', () => {
  it('looks each up, and sends one email carrying every issued report', async () => {
    const c = await catalogue(t);
    const [a, b, held, noData] = [c.serial(21), c.serial(22), c.serial(23), c.serial(24)];
    const missing = `${c.prefix}000999`;
    await testData(t, a);
    await testData(t, b);
    await testData(t, held, { shell: 'fail' });
    // Pasted as on the page: one a line and comma separated, with a duplicate in another spelling.
    const body = requestBody({
      serials: `${a}\n${b.toLowerCase()}, ${held}\r\n${noData},${missing}\n\n ${a.replace('-', ' - ')}`,
      language: 'en',
    });
    const res = await postRequest(t.app, body);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.results.map((r: { serial: string; outcome: string }) => `${r.serial}:${r.outcome}`)).toEqual([
      `${a}:issued`,
      `${b}:issued`,
      `${held}:held`,
      `${noData}:held`,
      `${missing}:not-found`,
    ]);

    const mail = await mailTo(body.email as string);
    expect(mail.parsed!.attachments.map((x) => x.filename).sort()).toEqual([`test-report-${a}.pdf`, `test-report-${b}.pdf`]);
    expect(mail.parsed!.subject).toBe('Test reports for 2 units');
    expect(mail.parsed!.text).toContain(`${held}, ${noData}`);
    expect(mail.parsed!.text).not.toContain(missing);

    await vi.waitFor(async () => expect((await rowsOfGroup(data.requestId)).filter((r) => r.status === 'sent')).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    const rows = await rowsOfGroup(data.requestId);
    expect(rows.map((r) => `${r.serial}:${r.status}`).sort()).toEqual(
      [`${a}:sent`, `${b}:sent`, `${held}:held`, `${noData}:held`, `${missing}:not-found`].sort(),
    );
    const outboxIds = new Set(rows.filter((r) => r.outboxId).map((r) => r.outboxId));
    expect(outboxIds.size).toBe(1);
    expect(sink.messages.filter((m) => m.to.includes(body.email as string))).toHaveLength(1);
    // The outbox row names the stored reports and carries no PDF: their bytes are read when the email is
    // sent (report-mail.ts), not written a second time (docs/decisions/0020).
    const [outbox] = await t.app.ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.id, [...outboxIds][0]!));
    expect(outbox!.attachments.map((x) => x.ref).sort()).toEqual(rows.flatMap((r) => (r.reportId ? [r.reportId] : [])).sort());
    expect(outbox!.attachments.some((x) => x.contentBase64 !== undefined)).toBe(false);
  });

  it('takes serials as an array too, and refuses more than 20 distinct ones', async () => {
    const c = await catalogue(t);
    const twenty = Array.from({ length: 20 }, (_, i) => c.serial(50 + i));
    const ok = await postRequest(t.app, requestBody({ serials: [...twenty, twenty[0]!.toLowerCase()] }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.results).toHaveLength(20);
    const over = await postRequest(t.app, requestBody({ serials: [...twenty, c.serial(99)].join('\n') }));
    expect(over.statusCode).toBe(400);
    expect(over.json().error.fields[0]).toMatchObject({ field: 'serials', message: 'At most 20 serial numbers at a time' });
  });
});

describe('validation', () => {
  it('names each field: email required and valid, agreement, serial, language', async () => {
    const c = await catalogue(t);
    const serial = c.serial(1);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ serial, email: '' }, 'email', 'This field is required'],
      [{ serial, email: undefined }, 'email', 'This field is required'],
      [{ serial, email: 'not-an-address' }, 'email', 'The Email field must be a valid email'],
      [{ serial, agreeToTerms: false }, 'agreeToTerms', 'You must agree to continue'],
      [{ serial, agreeToTerms: undefined }, 'agreeToTerms', 'You must agree to continue'],
      [{ serial, language: 'fr' }, 'language', 'Choose one of the listed values'],
      [{ serial: '' }, 'serial', 'This field is required'],
      [{ serials: ' ,\n, ' }, 'serials', 'This field is required'],
      [{}, 'serial', 'This field is required'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await postRequest(t.app, { ...requestBody(overrides), challenge: 'x' });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().error.fields, JSON.stringify(overrides)).toContainEqual(expect.objectContaining({ field, message }));
    }
  });

  it('refuses an agreement to terms that are no longer in force', async () => {
    const c = await catalogue(t);
    const res = await postRequest(t.app, requestBody({ serial: c.serial(1), termsVersion: 987_654 }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.key).toBe('publicApi.termsChanged');
  });
});
