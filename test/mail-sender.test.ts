/**
 * Mail comes from the company: the From names it (MAIL_FROM's address under Settings' company name) and a
 * reply goes to its contact address; a new installation's placeholder name leaves MAIL_FROM as it is. Real SMTP
 * receives the messages.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueMail } from '../src/server/mail/outbox';
import { createMailTransport, type MailTransport } from '../src/server/mail/transports';
import { createMailWorker } from '../src/server/mail/worker';
import { mailSender } from '../src/server/modules/settings/settings.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';

let sink: SmtpSink;
let t: TestApp;
let transport: MailTransport;
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Test Report Center <certificates@formosa-valves.example>' });
  transport = createMailTransport(t.config, quiet);
});
afterAll(async () => {
  await transport.close();
  await t.close();
  await sink.close();
});

async function sendOne(to: string) {
  const db = t.app.ctx.db;
  await enqueueMail(db, { kind: 'test', to, language: 'en', subject: 'Your certificate', text: 'Attached.' });
  // A new sender each time: its reading of Settings is kept for 10 s.
  const worker = createMailWorker({ db, transport, log: quiet, sender: mailSender(db) });
  await worker.runOnce();
  await worker.stop();
  const [mail] = await sink.waitFor(sink.messages.length).then((all) => all.filter((m) => m.to.includes(to)));
  return mail!;
}

it("keeps MAIL_FROM while Settings hold the new installation's placeholder name", async () => {
  const mail = await sendOne('first@buyer.example');
  expect(mail.parsed!.from).toMatchObject({ address: 'certificates@formosa-valves.example', name: 'Test Report Center' });
  expect(mail.parsed!.replyTo ?? []).toEqual([]);
  expect(mail.raw.toString()).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
  expect(mail.raw.toString()).toMatch(/^Message-ID: <[^@]+@formosa-valves\.example>\r?$/im);
});

it("writes From with the company's name and Reply-To its contact address", async () => {
  await t.app.ctx.db.execute(
    sql`UPDATE settings SET company_name = 'Formosa Flow Valves Co., Ltd.', contact = 'qa@formosa-valves.example'`,
  );
  const mail = await sendOne('second@buyer.example');
  expect(mail.parsed!.from).toMatchObject({ address: 'certificates@formosa-valves.example', name: 'Formosa Flow Valves Co., Ltd.' });
  expect(mail.parsed!.replyTo).toEqual([expect.objectContaining({ address: 'qa@formosa-valves.example' })]);
});

it('leaves Reply-To out when the contact is not an address (a phone number)', async () => {
  await t.app.ctx.db.execute(sql`UPDATE settings SET contact = '+886 4 2345 6789'`);
  const mail = await sendOne('third@buyer.example');
  expect(mail.parsed!.from).toMatchObject({ name: 'Formosa Flow Valves Co., Ltd.' });
  expect(mail.parsed!.replyTo ?? []).toEqual([]);
});
