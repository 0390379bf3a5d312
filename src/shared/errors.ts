/**
 * Error codes of the API (the original's callable-function codes) and their HTTP statuses.
 * Shared so that the server renders them and the web client understands them.
 */
export const ERROR_CODES = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  aborted: 409,
  'already-exists': 409,
  'failed-precondition': 409,
  'out-of-range': 413,
  'unsupported-media-type': 415,
  'resource-exhausted': 429,
  cancelled: 499,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
  'deadline-exceeded': 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** `not-found` → `NOT_FOUND`: the form the envelope carries in `error.status`. */
export function statusName(code: ErrorCode): string {
  return code.toUpperCase().replace(/-/g, '_');
}

export function codeForHttpStatus(status: number): ErrorCode {
  if (status === 409) return 'aborted';
  const hit = (Object.entries(ERROR_CODES) as [ErrorCode, number][]).find(([, s]) => s === status);
  if (hit) return hit[0];
  return status >= 500 ? 'internal' : 'invalid-argument';
}

export interface FieldError {
  /** dotted path of the field, e.g. `email` or `records.3.serial` */
  field: string;
  /** i18n key of the message, e.g. `validation.required` */
  key: string;
  /** the message in the request's language */
  message: string;
  params?: Record<string, string | number>;
}

/** The body of every failed API response. */
export interface ErrorBody {
  error: {
    status: string;
    message: string;
    key?: string;
    fields?: FieldError[];
    requestId?: string;
    params?: Record<string, string | number>;
  };
}

/**
 * The one error type services throw. `messageKey` is an i18n key of src/shared/i18n; the error handler
 * translates it for the response, and the web client translates the same key for the user.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly messageKey: string;
  readonly params?: Record<string, string | number>;
  readonly fields?: Omit<FieldError, 'message'>[];

  constructor(
    code: ErrorCode,
    messageKey: string,
    options: { params?: Record<string, string | number>; fields?: Omit<FieldError, 'message'>[] } = {},
  ) {
    super(messageKey);
    this.name = 'AppError';
    this.code = code;
    this.messageKey = messageKey;
    this.params = options.params;
    this.fields = options.fields;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code];
  }
}
