/**
 * A real SMTP server for tests and the benchmark (`smtp-server` on an ephemeral 127.0.0.1 port). It
 * keeps what it receives, parsed with postal-mime, and can be told to refuse the next messages with a
 * chosen reply (421/451 temporary, 550 permanent) or to drop the connection mid-message.
 */
import type { Socket } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  from: string;
  to: string[];
  raw: Buffer;
  /** undefined when the sink was started with parse: false */
  parsed?: Email;
}

export interface SinkFailure {
  /** SMTP reply code, e.g. 421, 451, 550 */
  code: number;
  message?: string;
  /** where to refuse: the recipient (RCPT TO) or the message (after DATA); default 'data' */
  stage?: 'rcpt' | 'data';
}

export interface SmtpSink {
  port: number;
  /** for SMTP_URL */
  url: string;
  messages: ReceivedMessage[];
  /** Refuse the next `count` messages with this reply. */
  failNext(count: number, failure: SinkFailure): void;
  /** Close the connection without a reply on the next `count` messages, after their data arrived. */
  dropNext(count: number): void;
  /** Resolves once at least `count` messages have arrived; rejects after timeoutMs. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /** how many attempts were refused or dropped so far */
  refused: number;
  close(): Promise<void>;
}

type Plan = { kind: 'fail'; failure: SinkFailure } | { kind: 'drop' };

/** `port`: a fixed one, e.g. to bring a sink back where a closed one was (an SMTP server that comes back). */
export async function startSmtpSink(options: { parse?: boolean; port?: number } = {}): Promise<SmtpSink> {
  const parse = options.parse ?? true;
  const plans: Plan[] = [];
  const sockets = new Map<number, Socket>();
  const messages: ReceivedMessage[] = [];
  const waiters = new Set<() => void>();
  let refused = 0;

  const smtpError = (f: SinkFailure) =>
    Object.assign(new Error(f.message ?? (f.code >= 500 ? 'Mailbox unavailable' : 'Try again later')), { responseCode: f.code });

  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    // No certificate here: without STARTTLS on offer, nodemailer stays on plain text as the test wants.
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    onAuth(_auth, _session, cb) {
      cb(null, { user: 'test' });
    },
    onRcptTo(_address, _session, cb) {
      const next = plans[0];
      if (next?.kind === 'fail' && next.failure.stage === 'rcpt') {
        plans.shift();
        refused++;
        cb(smtpError(next.failure));
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const plan = plans.shift();
        if (plan?.kind === 'drop') {
          refused++;
          sockets.get(session.remotePort)?.destroy();
          return;
        }
        if (plan?.kind === 'fail') {
          refused++;
          cb(smtpError(plan.failure));
          return;
        }
        const raw = Buffer.concat(chunks);
        const message: ReceivedMessage = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        };
        void (parse ? PostalMime.parse(raw) : Promise.resolve(undefined)).then((parsed) => {
          message.parsed = parsed;
          messages.push(message);
          for (const w of waiters) w();
          cb(null, 'Queued');
        }, cb);
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort;
    if (port === undefined) return;
    sockets.set(port, socket);
    socket.on('close', () => sockets.delete(port));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refused() {
      return refused;
    },
    failNext(count, failure) {
      for (let i = 0; i < count; i++) plans.push({ kind: 'fail', failure: { stage: 'data', ...failure } });
    },
    dropNext(count) {
      for (let i = 0; i < count; i++) plans.push({ kind: 'drop' });
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          cleanup();
          resolve(messages);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`SMTP sink: ${messages.length} of ${count} messages after ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const s of sockets.values()) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
