/**
 * How a claimed outbox row leaves the process: SMTP through one pooled nodemailer transporter when
 * SMTP_URL is set, otherwise an RFC 822 `.eml` file under `${DATA_DIR}/outbox/`, so that an install
 * without a mail server still produces (and shows in its log) exactly what it would have sent.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type nodemailerModule from 'nodemailer';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { packageOnFirstUse } from '../lib/first-use';
import type { Config } from '../config';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files';
import type { OutboxAttachment, OutboxRow } from '../db/schema/index';

// nodemailer is required and its transporter made when the first message leaves (lib/first-use.ts).
const nodemailer = packageOnFirstUse<typeof nodemailerModule>('nodemailer');

/** `make()` on the first call, then the same transporter; `close()` closes it only if it was made. */
function transporterOnFirstUse(make: () => Transporter): { get: () => Transporter; close: () => void } {
  let made: Transporter | undefined;
  return {
    get: () => (made ??= make()),
    close: () => made?.close(),
  };
}

/** The part of pino the mail code uses; Fastify's logger fits, tests pass a silent one. */
export interface MailLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SendResult {
  messageId: string;
  /** the .eml file, for the file transport */
  location?: string;
}

export interface MailTransport {
  /** where messages go, for the log (credentials removed) */
  readonly description: string;
  /** true when what is sent stays on this server's disk (the .eml fallback): secrets must be left out */
  readonly keepsCopies: boolean;
  send(row: OutboxRow, sender?: Sender): Promise<SendResult>;
  close(): Promise<void>;
}

/** Who the mail is from, as Settings names the company: the From's display name and the Reply-To. */
export interface Sender {
  /** the company's name; '' keeps MAIL_FROM's own display name */
  name: string;
  /** where a reply goes (the company's contact address); '' for none */
  replyTo: string;
}

/**
 * Well below the first retry interval (worker.ts), so that a dead server turns into a retry quickly
 * instead of holding a message for nodemailer's defaults of minutes.
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
} as const;

/** The address of a From such as `Name <a@b>` or `a@b`. */
function addressOf(from: string): string {
  return /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from)?.[1] ?? (/^[^\s<>]+@[^\s<>]+$/.test(from.trim()) ? from.trim() : '');
}

function domainOf(from: string): string {
  return /@([^\s>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/** The nodemailer message for a row. The Message-ID is stable per row so that a resend after a crash can be recognised as the same message. */
export function composeMessage(row: OutboxRow, from: string, sender?: Sender): SendMailOptions {
  const address = addressOf(from);
  return {
    // MAIL_FROM's address under the company's name: a buyer sees who wrote, and a reply reaches a person.
    from: sender?.name && address ? { name: sender.name, address } : from,
    ...(sender?.replyTo ? { replyTo: sender.replyTo } : {}),
    to: row.recipient,
    subject: row.subject,
    text: row.textBody,
    ...(row.htmlBody ? { html: row.htmlBody } : {}),
    messageId: `<${row.id}@${domainOf(from)}>`,
    // Every message of this app is sent by it, not by a person (RFC 3834): auto-responders do not answer.
    headers: { 'Auto-Submitted': 'auto-generated' },
    attachments: row.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(attachmentBase64(a), 'base64'),
    })),
  };
}

/** An attachment's bytes; one named by `ref` only must have been filled in by its kind's composer (composers.ts). */
function attachmentBase64(a: OutboxAttachment): string {
  if (a.contentBase64 !== undefined) return a.contentBase64;
  // EMESSAGE: a permanent failure (retry-policy.ts); no later attempt would find the bytes either.
  throw Object.assign(new Error(`The attachment ${a.filename} was not composed (no composer for it)`), { code: 'EMESSAGE' });
}

function describeSmtpUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
}

export interface SmtpTransportOptions {
  /** false only for the benchmark's comparison: a connection per message costs ~100 ms */
  pool?: boolean;
  maxConnections?: number;
}

export function createSmtpTransport(url: string, from: string, options: SmtpTransportOptions = {}): MailTransport {
  const common = {
    url,
    ...SMTP_TIMEOUTS,
    // Rows carry their content; a path or URL in one must never make the server read files or fetch.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const transporter = transporterOnFirstUse(() =>
    options.pool === false
      ? nodemailer().createTransport(common)
      : nodemailer().createTransport({ ...common, pool: true, maxConnections: options.maxConnections ?? 5 }),
  );
  return {
    description: `SMTP ${describeSmtpUrl(url)}${options.pool === false ? ' (unpooled)' : ''}`,
    keepsCopies: false,
    async send(row, sender) {
      const info = await transporter.get().sendMail(composeMessage(row, from, sender));
      return { messageId: info.messageId };
    },
    async close() {
      transporter.close();
    },
  };
}

function fileNameFor(row: OutboxRow): string {
  // Named after the row (not the attempt), so a resend overwrites rather than duplicates; the enqueue
  // time first so that a directory listing reads in order.
  const stamp = row.createdAt.toISOString().replace(/[:.]/g, '-');
  const kind = row.kind.replace(/[^\w-]+/g, '_');
  return `${stamp}_${kind}_${row.id}.eml`;
}

export function createFileTransport(dir: string, from: string, log: MailLog): MailTransport {
  const composer = transporterOnFirstUse(() =>
    nodemailer().createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'windows',
      disableFileAccess: true,
      disableUrlAccess: true,
    }),
  );
  return {
    description: `.eml files under ${dir} (SMTP_URL is not set)`,
    keepsCopies: true,
    async send(row, sender) {
      const info = await composer.get().sendMail(composeMessage(row, from, sender));
      await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const file = path.join(dir, fileNameFor(row));
      // Written aside and renamed, so that whoever watches the folder never reads half a message. Owner-only:
      // a message holds a customer's address and their report (db/private-files.ts).
      const partial = `${file}.partial`;
      try {
        await fs.writeFile(partial, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
        await fs.rename(partial, file);
      } catch (err) {
        // A full disk (ENOSPC) leaves a cut-off file: remove it; the worker retries the message later.
        await fs.rm(partial, { force: true }).catch(() => undefined);
        throw err;
      }
      log.info({ file, kind: row.kind, outboxId: row.id }, `SMTP_URL is not set: email written to ${file}`);
      return { messageId: info.messageId, location: file };
    },
    async close() {
      composer.close();
    },
  };
}

/** SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox. Create one per process. */
export function createMailTransport(config: Config, log: MailLog): MailTransport {
  return config.smtpUrl
    ? createSmtpTransport(config.smtpUrl, config.mailFrom)
    : createFileTransport(path.join(config.dataDir, 'outbox'), config.mailFrom, log);
}
