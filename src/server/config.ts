/**
 * Configuration from the environment, parsed once at start. A bad value stops the program with one line
 * naming the variable (see main.ts), never a stack trace.
 */
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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
    if (parts.every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p) || p === 'loopback' || p === 'uniquelocal' || p === 'linklocal')) {
      return parts;
    }
    ctx.addIssue({ code: 'custom', message: "must be false or a list of the proxies' addresses" });
    return z.NEVER;
  });

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
  MAIL_FROM: z.string().trim().min(3).default('Test Report Center <no-reply@localhost>'),
  PUBLIC_BASE_URL: urlWithProtocols(['http:', 'https:'], 'https://reports.example.com').optional(),
  TRUST_PROXY: trustProxy.default(false),
  TRUST_FORWARDED_HOST: onOff.default(false),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  METRICS_TOKEN: z.string().trim().min(16, { message: 'must be at least 16 characters (a random secret)' }).optional(),
  METRICS_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(1).max(65535).optional(),
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
  /** /metrics on the main port needs `Authorization: Bearer <token>`; unset: /metrics is 404 there */
  metricsToken?: string;
  /** a separate listener serving only /metrics (bound to HOST); the token is required there too when set */
  metricsPort?: number;
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    trustForwardedHost: e.TRUST_FORWARDED_HOST,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
  };
}
