/**
 * What the server's log looks like and what it holds (docs/operations.md, "Logs"):
 *  - readable lines on a terminal, one JSON object a line anywhere else (a service manager, a container, a
 *    pipe), or as LOG_FORMAT says;
 *  - Fastify's two lines per request ("incoming request", "request completed") at debug, so the default
 *    level (info) shows what happens to the server, not every click; a failed request still writes its
 *    error, and warnings are always written.
 */
import os from 'node:os';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type * as PinoPrettyModule from 'pino-pretty';
import type { Config, LogFormat } from '../config';
import { packageOnFirstUse } from './first-use';

// pino-pretty is an optional dependency, loaded only for a readable log (lib/first-use.ts).
const pinoPretty = packageOnFirstUse<typeof PinoPrettyModule>('pino-pretty');

/** Where log lines go: pino writes one JSON line per call. */
export interface LogStream {
  write(line: string): void;
}

/** LOG_FORMAT when set; otherwise readable lines on a terminal and JSON lines anywhere else. */
export function resolveLogFormat(setting: LogFormat | undefined, isTerminal: boolean): LogFormat {
  return setting ?? (isTerminal ? 'pretty' : 'json');
}

/**
 * The stream the log writes to. `pretty`: each JSON line turned into one readable line, written to `out`
 * synchronously (nothing is lost when the process exits right after); JSON lines when pino-pretty is not
 * installed. `json`: `out` when given (tests), else undefined, pino's own writer on stdout.
 */
export function logStream(format: LogFormat, out?: NodeJS.WritableStream): LogStream | undefined {
  if (format === 'json') return out;
  const target = out ?? process.stdout;
  let pretty: (line: string) => string;
  try {
    pretty = pinoPretty().prettyFactory({
      colorize: 'isTTY' in target && target.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId',
      singleLine: true,
    });
  } catch {
    return out;
  }
  return { write: (line) => void target.write(pretty(line)) };
}

/** The log's stream for a configuration: LOG_FORMAT, or whether stdout is a terminal. */
export function configuredLogStream(config: Pick<Config, 'logFormat'>): LogStream | undefined {
  return logStream(resolveLogFormat(config.logFormat, process.stdout.isTTY === true));
}

const LEVELS = { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10, silent: Infinity } as const;

/**
 * A log line before the app (and its logger) exists, for what the server says while it starts (the
 * database, its migrations): the same JSON object pino writes, into the same stream, so it looks like
 * the lines after it in either format.
 */
export function startLog(level: Config['logLevel'], stream: LogStream = process.stdout) {
  return (lineLevel: 'info' | 'warn', msg: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[lineLevel] < LEVELS[level]) return;
    const line = { level: LEVELS[lineLevel], time: Date.now(), pid: process.pid, hostname: os.hostname(), ...fields, msg };
    stream.write(`${JSON.stringify(line)}\n`);
  };
}

/**
 * Fastify's per-request lines at debug instead of info. A request that fails still writes its error at
 * error level (the error handler, lib/error-handler.ts), and a response that breaks off still writes
 * Fastify's error line.
 */
export class RequestLogAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    // Without the query string, as requestForLog (app.ts) keeps it out of every request line.
    request.log.debug(`Route ${request.raw.method}:${request.raw.url?.split('?')[0] ?? ''} not found`);
  }
}

/** The seconds a step took, for the lines the server and `npm start` print while starting: "2.4 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
