/**
 * Every failure leaves the server as `{ error: { status, message, key?, fields?, requestId? } }`.
 * Client mistakes are named (validation errors name each field); a 5xx hides its internals and carries the
 * request id that is also in the log line.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, codeForHttpStatus, ERROR_CODES, statusName, type ErrorBody, type ErrorCode, type FieldError } from '../../shared/errors';
import { hasKey, translate } from '../../shared/i18n/index';
import { withWait } from './limit-wait';
import { requestLanguage } from './request-language';

/**
 * Answers with the error envelope. Also for a route whose usual answer is an error (the public lookup's "not
 * found", a fifth of its traffic): the same body as a thrown AppError, without an exception's stack.
 */
export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  key: string,
  extra: { params?: Record<string, string | number>; fields?: FieldError[]; httpStatus?: number } = {},
) {
  const language = requestLanguage(req);
  const httpStatus = extra.httpStatus ?? ERROR_CODES[code];
  const params = withWait(language, key, extra.params);
  const body: ErrorBody = {
    error: {
      status: statusName(code),
      message: translate(language, key, params),
      key,
      ...(params ? { params } : {}),
      ...(extra.fields ? { fields: extra.fields } : {}),
      ...(httpStatus >= 500 ? { requestId: String(req.id) } : {}),
    },
  };
  return reply.status(httpStatus).type('application/json; charset=utf-8').send(body);
}

/** A zod issue message is an i18n key when the shared schemas set one; anything else reads "not valid". */
export function fieldError(req: FastifyRequest, field: string, message: string, params?: Record<string, unknown>): FieldError {
  const key = hasKey(message) ? message : 'validation.invalid';
  const p =
    params &&
    (Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as Record<
      string,
      string | number
    >);
  return { field, key, message: translate(requestLanguage(req), key, p), ...(p && Object.keys(p).length ? { params: p } : {}) };
}

/** Errors Fastify raises before routing (a malformed URL, an over-long parameter): 400 in the envelope. */
export function frameworkErrorHandler(_err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  return sendError(req, reply, 'invalid-argument', 'errors.malformedUrl');
}

/**
 * A multipart body busboy cannot parse (no or an over-long boundary, the body ending mid-part): the client's
 * mistake, but busboy's errors carry neither a code nor a status, so they are told apart by their message,
 * and only on a multipart request. Found by test/fuzz-openapi.test.ts (they were 500s).
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|The needle cannot (be an empty|have a length bigger))/;
function isMalformedMultipart(req: FastifyRequest, err: Error): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/') && MALFORMED_MULTIPART.test(err.message);
}

/**
 * Whether the request's body is still arriving: an upload refused (413 at its limit, 429 over a budget)
 * before it was read through. Its connection is then closed after the answer, as Fastify closes it for a
 * body over bodyLimit, rather than left to read (or ignore) the rest of the body. In-process requests
 * (app.inject) have no such state.
 */
function bodyStillArriving(req: FastifyRequest): boolean {
  const { headers } = req;
  const hasBody =
    (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
  return hasBody && req.raw.complete === false;
}

/** `pageFallback` answers GET requests outside /api that match no route (the web app's history routing). */
export function registerErrorHandling(app: FastifyInstance, pageFallback?: (req: FastifyRequest, reply: FastifyReply) => unknown): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    if (bodyStillArriving(req)) reply.header('connection', 'close');
    if (err instanceof AppError) {
      // Busy (a full queue, worker-pool.ts): the client is told when to come back.
      if (err.code === 'unavailable') reply.header('retry-after', String(err.params?.seconds ?? 5));
      const fields = err.fields?.map((f) => fieldError(req, f.field, f.key, f.params));
      return sendError(req, reply, err.code, err.messageKey, { params: err.params, fields });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => {
        const issue = v.params as { maximum?: unknown; minimum?: unknown };
        return fieldError(req, v.instancePath.replace(/^\//, '').replace(/\//g, '.'), v.message ?? '', {
          max: issue.maximum,
          min: issue.minimum,
        });
      });
      // Two rules of one field may fail with the same message (e.g. NUL and control characters): say it once.
      const unique = fields.filter((f, i) => fields.findIndex((g) => g.field === f.field && g.key === f.key) === i);
      return sendError(req, reply, 'invalid-argument', 'errors.invalidRequest', { fields: unique });
    }
    const fe = err as FastifyError;
    switch (fe.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(req, reply, 'invalid-argument', 'errors.malformedJson');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
      case 'FST_FILES_LIMIT':
        return sendError(req, reply, 'out-of-range', 'errors.bodyTooLarge');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
        return sendError(req, reply, 'unsupported-media-type', 'errors.unsupportedMediaType');
    }
    if (isMalformedMultipart(req, err)) return sendError(req, reply, 'invalid-argument', 'errors.malformedUpload');
    if (fe.statusCode === 429) {
      const seconds = Math.max(1, Math.ceil(Number(reply.getHeader('retry-after') ?? 60)));
      return sendError(req, reply, 'resource-exhausted', 'errors.tooManyRequests', { params: { seconds } });
    }
    if (fe instanceof SyntaxError && 'statusCode' in fe && fe.statusCode === 400) {
      return sendError(req, reply, 'invalid-argument', 'errors.malformedJson');
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(req, reply, codeForHttpStatus(fe.statusCode), 'errors.invalidRequest', { httpStatus: fe.statusCode });
    }
    // The database is down or restarting, or the disk under it is full: not the request's fault and not a
    // bug, so a 503 that says to come back (a load balancer moves on), and one log line saying why.
    const unavailable = unavailableCause(err);
    if (unavailable) {
      req.log.error({ err, cause: unavailable }, 'service unavailable: database or storage');
      reply.header('retry-after', '5');
      return sendError(req, reply, 'unavailable', 'errors.unavailable');
    }
    // Safety net for database refusals that validation should have caught: a data exception (class 22,
    // e.g. a number out of range) or an unhandled integrity violation (class 23) is the client's input,
    // not our failure. Logged, since it means a schema is missing a rule.
    const sqlState = databaseErrorCode(err);
    if (sqlState?.startsWith('22')) {
      req.log.warn({ err }, 'database refused a value that validation let through');
      return sendError(req, reply, 'invalid-argument', 'errors.invalidRequest');
    }
    if (sqlState?.startsWith('23')) {
      req.log.warn({ err }, 'unhandled integrity violation');
      return sendError(req, reply, 'aborted', 'errors.conflict');
    }
    // A deadlock or serialization failure the route did not retry: another request changed the same rows
    // at the same moment. Sending the same request again is the answer, not a bug report.
    if (sqlState?.startsWith('40')) {
      req.log.warn({ err }, 'transaction rolled back for a concurrent one');
      return sendError(req, reply, 'aborted', 'errors.conflict');
    }
    req.log.error({ err }, 'request failed');
    return sendError(req, reply, 'internal', 'errors.internal');
  });

  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith('/api/') || req.url === '/api';
    if (!isApi && pageFallback && (req.method === 'GET' || req.method === 'HEAD')) return pageFallback(req, reply);
    return sendError(req, reply, 'not-found', isApi ? 'errors.routeNotFound' : 'errors.notFound');
  });
}

/** The SQLSTATE of a PostgreSQL error (pg and PGlite), also when Drizzle wraps it as `cause`. */
function databaseErrorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

// Network failures reaching the database (pg), and a full or over-quota disk (the embedded database, files).
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
]);
// pg's own words for a connection that is gone or could not be made in time (these carry no code).
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end/i;

/**
 * Why the error means "unavailable" (an errno, a SQLSTATE or pg's message), or undefined. SQLSTATE class 08
 * (connection exception), 53 (insufficient resources: disk full, out of memory, too many connections) and
 * 57P01–57P03 (the server is shutting down or starting up). Looks through Drizzle's `cause` and AggregateError.
 */
export function unavailableCause(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): string | undefined => {
    if (!e || typeof e !== 'object' || depth > 4 || seen.has(e)) return undefined;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') {
      if (UNAVAILABLE_ERRNO.has(code)) return code;
      if (/^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)) return code;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return message;
    if (Array.isArray(errors))
      for (const inner of errors) {
        const found = visit(inner, depth + 1);
        if (found) return found;
      }
    return visit(cause, depth + 1);
  };
  return visit(err, 0);
}
