import type { ApiErrorBody } from '@shared/contracts/common';

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'UNPROCESSABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE'
  | 'INTERNAL'
  | 'UNAVAILABLE';

/** Every code maps to exactly one status; internal (500) messages are never shown to clients. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** A capability link that expired or was used (a payment set-up link: product.md section 18). */
  GONE: 410,
  /** Well-formed, but it cannot be done as asked (an Idempotency-Key reused with another request). */
  UNPROCESSABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  /** The database (or another service a request needs) is unreachable for the moment: retry shortly. */
  UNAVAILABLE: 503,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors?: Record<string, string[]>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { fieldErrors?: Record<string, string[]>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fieldErrors = extra.fieldErrors;
    this.headers = extra.headers;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }

  toBody(): ApiErrorBody {
    return { message: this.message, code: this.code, ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}) };
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const forbidden = (message = "You don't have permission to do this") => new AppError('FORBIDDEN', message);
export const badRequest = (message: string, fieldErrors?: Record<string, string[]>) =>
  new AppError(fieldErrors ? 'VALIDATION' : 'BAD_REQUEST', message, { fieldErrors });

/** Each field that failed with its messages, as a 400's `fieldErrors` carries them. */
export type FieldErrors = Record<string, string[]>;

/** Adds a message to a field's list (a field may fail more than one rule). */
export function addFieldError(fieldErrors: FieldErrors, field: string, message: string): void {
  fieldErrors[field] = [...(fieldErrors[field] ?? []), message];
}

/**
 * The 400 naming each field that failed: its message is every distinct message once, joined by "; ", unless
 * the caller words it; `fieldErrors` as given. Every validation answer, the schemas' and the services', is this.
 */
export function invalidFields(fieldErrors: FieldErrors, message?: string): AppError {
  return new AppError('VALIDATION', message ?? [...new Set(Object.values(fieldErrors).flat())].join('; '), {
    fieldErrors,
  });
}

/** Throws invalidFields when any field failed; nothing otherwise. */
export function assertNoFieldErrors(fieldErrors: FieldErrors): void {
  if (Object.keys(fieldErrors).length > 0) throw invalidFields(fieldErrors);
}
