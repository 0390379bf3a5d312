/**
 * Configuration from the environment, parsed once at start. A bad value stops the program with one line
 * naming the variable (see main.ts), never a stack trace.
 */
import net from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { z } from 'zod';
import { originOf } from '../shared/identification';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** MAIL_FROM's default: fine on a developer's machine, warned about at start in production (start-warnings.ts). */
export const DEFAULT_MAIL_FROM = 'Test Report Center <no-reply@localhost>';

function urlWithProtocols(protocols: string[], example: string) {
  return z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a URL like ${example}` },
    );
}

/**
 * `TRUST_PROXY`: false, or a comma-separated list of the proxies' addresses or CIDR ranges (or `loopback`,
 * `linklocal`, `uniquelocal`). Refused:
 *  - `true`: it trusts every X-Forwarded-* header from anyone, so any client could forge its address (past
 *    every per-address limit and into the audit log), its protocol and its host (past the public-host guard);
 *  - a hop count: it cannot tell a request that came through the proxy from one sent straight to the app
 *    with forged headers, and Fastify 5 ignores it for that reason (it trusts nothing), which would leave
 *    the app silently seeing only the proxy's address.
 * The proxy's own address trusts exactly what that proxy added.
 */
const PROXY_HINT = "give the proxy's addresses instead, e.g. TRUST_PROXY=127.0.0.1 or TRUST_PROXY=10.0.0.0/24";
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | string[] => {
    if (v === '' || v === 'false' || v === '0') return false;
    if (v === 'true') {
      ctx.addIssue({ code: 'custom', message: `true would let any client forge its address, protocol and host; ${PROXY_HINT}` });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: `a hop count cannot check that a request came through the proxy; ${PROXY_HINT}` });
      return z.NEVER;
    }
    const parts = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const part of parts) {
      const problem = proxyRangeProblem(part);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `${part}: ${problem}; ${PROXY_HINT}` });
        return z.NEVER;
      }
    }
    return parts;
  });

const NAMED_RANGES = new Set(['loopback', 'uniquelocal', 'linklocal']);
/** IPv6 unique-local addresses (fc00::/7), where a private network's proxies may sit in a wide range. */
const PRIVATE_IPV6 = new net.BlockList();
PRIVATE_IPV6.addSubnet('fc00::', 7, 'ipv6');
/** Shortest prefix accepted: anything wider holds a large part of the Internet, not a proxy. */
const MIN_PREFIX = { 4: 8, 6: 16 } as const;

/**
 * Why one TRUST_PROXY entry cannot be used, or null. Checked here rather than left to Fastify, whose
 * range parser throws a bare TypeError at start for an address it cannot read (`0/0`, `1.2.3.4/40`), and
 * which would accept `0.0.0.0/0` or `::/0`: trusting everyone, the same as `true`.
 */
function proxyRangeProblem(entry: string): string | null {
  if (NAMED_RANGES.has(entry)) return null;
  const [address = '', prefixText, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return 'not an IP address or CIDR range';
  if (prefixText === undefined) return null;
  if (!/^\d{1,3}$/.test(prefixText)) return 'not an IP address or CIDR range';
  const prefix = Number(prefixText);
  const bits = family === 4 ? 32 : 128;
  if (prefix > bits) return `a prefix longer than /${bits}`;
  // ::ffff:a.b.c.d/96+n is the IPv4 range a.b.c.d/n as a dual-stack listener sees it.
  const mapped = family === 6 && /^::ffff:/i.test(address) && prefix >= 96;
  const effective = mapped ? { prefix: prefix - 96, min: MIN_PREFIX[4] } : { prefix, min: MIN_PREFIX[family as 4 | 6] };
  if (effective.prefix === 0) return 'this range trusts everyone, so any client could forge its address, protocol and host';
  if (family === 6 && prefix >= 7 && PRIVATE_IPV6.check(address, 'ipv6')) return null;
  if (effective.prefix < effective.min) return `a range wider than /${effective.min + (mapped ? 96 : 0)} trusts far more than a proxy`;
  return null;
}

/** A connection deadline: a whole number of milliseconds, at least 100 and at most an hour. */
function milliseconds(fallback: number) {
  return z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int({ message: 'must be a whole number of milliseconds' })
    .min(100, { message: 'must be at least 100 (milliseconds)' })
    .max(3_600_000, { message: 'must be at most 3600000 (one hour, in milliseconds)' })
    .default(fallback);
}
/** Binary units of a size: `200M` (or `200MiB`, `200MB`) is 200 × 1024 × 1024 bytes. */
const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
/** A number of bytes, with an optional K, M or G suffix (binary: 1K = 1024 bytes), at least 1 KiB. */
const bytes = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const m = /^(\d+)\s*([kmg]?)(?:i?b)?$/i.exec(v);
    const n = m ? Number(m[1]) * SIZE_UNITS[m[2]!.toLowerCase()]! : NaN;
    if (!Number.isSafeInteger(n) || n < 1024) {
      ctx.addIssue({ code: 'custom', message: 'must be a size in bytes of at least 1K, e.g. 200M or 1G (K, M, G: 1024, 1024², 1024³)' });
      return z.NEVER;
    }
    return n;
  });
/** A share of a deadline per unit of work: a whole number of milliseconds from 0 to 10 s. */
const millisecondsEach = (fallback: number) =>
  z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int({ message: 'must be a whole number of milliseconds' })
    .min(0, { message: 'must be at least 0' })
    .max(10_000, { message: 'must be at most 10000 (milliseconds)' })
    .default(fallback);

/** UPLOAD_FILE_LIMIT's default: the largest CSV file of an import (a million test records are about 90 MB). */
export const DEFAULT_UPLOAD_FILE_LIMIT = 200 * 1024 * 1024;

/**
 * `TRUST_FORWARDED_HOST`: whether the host name may come from X-Forwarded-Host (a proxy that rewrites Host).
 * Off by default: the host name decides public host or staff host (lib/public-host.ts) and the CSRF origin,
 * and a proxy that passes a client's own X-Forwarded-Host through would let anyone choose it. The proxies of
 * docs/operations.md keep the Host header instead. Only with TRUST_PROXY (a header from anyone else is never believed).
 */
const onOff = z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:'], 'postgres://user:pass@host:5432/db').optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:'], 'smtp://user:pass@mail.example.com:587').optional(),
  MAIL_FROM: z.string().trim().min(3).default(DEFAULT_MAIL_FROM),
  PUBLIC_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://reports.example.com').optional(),
  TRUST_PROXY: trustProxy.default(false),
  TRUST_FORWARDED_HOST: onOff.default(false),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: z
    .enum(LOG_FORMATS, { message: `must be one of ${LOG_FORMATS.join(', ')} (unset: pretty on a terminal, else json)` })
    .optional(),
  // Only whether it is `production`; other values (development, test) mean the same here.
  NODE_ENV: z.string().trim().optional(),
  METRICS_TOKEN: z.string().trim().min(16, { message: 'must be at least 16 characters (a random secret)' }).optional(),
  METRICS_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(1).max(65535).optional(),
  HEADERS_TIMEOUT_MS: milliseconds(15_000),
  REQUEST_TIMEOUT_MS: milliseconds(60_000),
  IDLE_TIMEOUT_MS: milliseconds(60_000),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
  REPORT_WORKERS: z.coerce
    .number({ message: 'must be a number of threads' })
    .int()
    .min(0)
    .max(16, { message: 'must be at most 16' })
    .optional(),
  REPORT_QUEUE: z.coerce
    .number({ message: 'must be a number of reports' })
    .int()
    .min(1, { message: 'must be at least 1' })
    .max(10_000, { message: 'must be at most 10000' })
    .optional(),
  UPLOAD_FILE_LIMIT: bytes.optional(),
  UPLOAD_REQUEST_LIMIT: bytes.optional(),
  UPLOAD_USER_BUDGET: bytes.optional(),
  UPLOAD_INSTANCE_BUDGET: bytes.optional(),
  LABELS_DEADLINE_BASE_MS: milliseconds(30_000),
  LABELS_DEADLINE_PER_LABEL_MS: millisecondsEach(40),
  WEBHOOK_ALLOW_HTTP: onOff.default(false),
  WEBHOOK_ALLOW_PRIVATE: onOff.default(false),
  WEBHOOK_TIMEOUT_MS: milliseconds(10_000),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Base of links in emails, without a trailing slash. */
  publicBaseUrl: string;
  trustProxy: false | string[];
  /** take the host name from X-Forwarded-Host of a trusted proxy (TRUST_FORWARDED_HOST); otherwise Host */
  trustForwardedHost: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /** LOG_FORMAT; unset: readable lines on a terminal, JSON lines elsewhere (lib/log.ts) */
  logFormat?: LogFormat;
  /** NODE_ENV=production: what is only a developer's default (MAIL_FROM at localhost) is warned about at start */
  production: boolean;
  /** /metrics on the main port needs `Authorization: Bearer <token>`; unset: /metrics is 404 there */
  metricsToken?: string;
  /** a separate listener serving only /metrics (bound to HOST); the token is required there too when set */
  metricsPort?: number;
  /** Connection deadlines (docs/operations.md, "Connection deadlines"); see connectionDeadlines() in app.ts. */
  timeouts: {
    /** the request line and headers must arrive within this */
    headersMs: number;
    /** the whole request, body included, must arrive within this (not the answer's time) */
    requestMs: number;
    /** a connection with nothing sent or received for this long is closed */
    idleMs: number;
    /** a kept-alive connection waiting for its next request is closed after this */
    keepAliveMs: number;
  };
  /** The report pool (modules/reports/render-job.ts, docs/decisions/0020). */
  reports: {
    /** worker threads; 0 renders in the app's thread through the same queue */
    workers: number;
    /**
     * reports admitted at once, rendering and waiting; a request names how many it may need. Unset: by
     * engine, defaultReportQueue (the app knows which it opened)
     */
    queue?: number;
  };
  /**
   * What CSV uploads may hold in the spool (DATA_DIR/spool) while they arrive and are imported
   * (lib/upload-spool.ts, docs/operations.md "Uploads"). Each at least the one before it.
   */
  uploads: {
    /** one file of an upload (UPLOAD_FILE_LIMIT); more is a 413 when the limit is reached */
    fileBytes: number;
    /** all the files of one request (UPLOAD_REQUEST_LIMIT): an import's records and samples files */
    requestBytes: number;
    /** every upload of one user in flight at once (UPLOAD_USER_BUDGET); more is a 429 */
    userBytes: number;
    /** every upload in flight on this instance (UPLOAD_INSTANCE_BUDGET); more is a 429 */
    instanceBytes: number;
  };
  /**
   * The deadline of a labels PDF's response: base + per label × labels asked for (LABELS_DEADLINE_BASE_MS,
   * LABELS_DEADLINE_PER_LABEL_MS); a client not done by then is cut off and its drawing slot freed
   * (docs/decisions/0041-labels-deadline.md).
   */
  labels: { deadlineBaseMs: number; deadlinePerLabelMs: number };
  /** Webhook endpoints and their requests (docs/decisions/0066-webhooks.md). */
  webhooks: {
    /** WEBHOOK_ALLOW_HTTP: endpoints may be plain http (a developer's receiver); otherwise https only */
    allowHttp: boolean;
    /** WEBHOOK_ALLOW_PRIVATE: loopback and private addresses may be called (a receiver on the same network); link-local and cloud metadata never */
    allowPrivate: boolean;
    /** WEBHOOK_TIMEOUT_MS: one request, connection to the end of the answer */
    timeoutMs: number;
  };
}

/**
 * REPORT_QUEUE's default: three requests of 20 serials on PostgreSQL; one on the embedded database, where
 * the database itself runs in the app's thread and every admitted report is also stored there
 * (docs/decisions/0020, "The embedded database under the attack").
 */
export function defaultReportQueue(engine: 'pglite' | 'postgres'): number {
  return engine === 'pglite' ? 20 : 60;
}

/** One worker thread per core but one (the event loop keeps a core), at least one, at most four. */
export function defaultReportWorkers(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Empty variables count as unset, as a blank line in a .env file usually means. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((k) => [k, env[k]] as const)
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.TRUST_FORWARDED_HOST && e.TRUST_PROXY === false) {
    throw new ConfigError('Invalid TRUST_FORWARDED_HOST="true": it needs TRUST_PROXY, the address of the proxy that sets the header');
  }
  const uploads = uploadLimits(e, env);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicBaseUrl: originOf(e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`),
    trustProxy: e.TRUST_PROXY,
    trustForwardedHost: e.TRUST_FORWARDED_HOST,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    production: e.NODE_ENV === 'production',
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_MS,
      // Node refuses a header deadline later than the request's, which includes the headers.
      requestMs: Math.max(e.REQUEST_TIMEOUT_MS, e.HEADERS_TIMEOUT_MS),
      idleMs: e.IDLE_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    reports: { workers: e.REPORT_WORKERS ?? defaultReportWorkers(), queue: e.REPORT_QUEUE },
    uploads,
    labels: { deadlineBaseMs: e.LABELS_DEADLINE_BASE_MS, deadlinePerLabelMs: e.LABELS_DEADLINE_PER_LABEL_MS },
    webhooks: { allowHttp: e.WEBHOOK_ALLOW_HTTP, allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, timeoutMs: e.WEBHOOK_TIMEOUT_MS },
  };
}

/**
 * The upload limits, each defaulting from the one before (docs/decisions/0040-upload-budget.md): a
 * request carries an import's two files; a user has one such import in flight; an instance takes three
 * users' at once.
 */
function uploadLimits(e: z.infer<typeof envSchema>, env: NodeJS.ProcessEnv): Config['uploads'] {
  const fileBytes = e.UPLOAD_FILE_LIMIT ?? DEFAULT_UPLOAD_FILE_LIMIT;
  const requestBytes = e.UPLOAD_REQUEST_LIMIT ?? 2 * fileBytes;
  const userBytes = e.UPLOAD_USER_BUDGET ?? requestBytes;
  const instanceBytes = e.UPLOAD_INSTANCE_BUDGET ?? 3 * userBytes;
  const order: [name: string, value: number, below: string, min: number][] = [
    ['UPLOAD_REQUEST_LIMIT', requestBytes, 'UPLOAD_FILE_LIMIT', fileBytes],
    ['UPLOAD_USER_BUDGET', userBytes, 'UPLOAD_REQUEST_LIMIT', requestBytes],
    ['UPLOAD_INSTANCE_BUDGET', instanceBytes, 'UPLOAD_USER_BUDGET', userBytes],
  ];
  for (const [name, value, below, min] of order) {
    if (value < min) {
      // A default is never below the one before it: only a value that was set can be.
      throw new ConfigError(
        `Invalid ${name}=${JSON.stringify(env[name] ?? String(value))}: must be at least ${below} (${min} bytes), or no upload could use it whole`,
      );
    }
  }
  return { fileBytes, requestBytes, userBytes, instanceBytes };
}
