import { AppError } from './errors';

/**
 * What a database failure means for the caller, decided in one place (the error handler and the background
 * jobs use it): the database is unreachable (503, try again shortly), or a constraint refused the data (409
 * or 400 with a message). Everything else stays an internal error.
 *
 * Drizzle wraps the driver's error in a DrizzleQueryError whose message and `params` carry the query's
 * parameters (new password hashes, tokens, e-mail addresses): `loggableError` is the only form of an error
 * that may be logged.
 */

/** SQLSTATE classes and codes of a lost or refused connection: admin shutdown, crash, too many connections. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
/** Socket-level failures reaching the server. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres, pg-pool and PGlite say these in words rather than codes. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Client was closed and is not queryable/i,
  /Client has encountered a connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /Cannot use a pool after calling end on the pool/i,
  /PGlite is closed/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export const UNAVAILABLE_MESSAGE = 'The database is unavailable at the moment. Please try again in a few seconds.';

type DriverError = Error & {
  code?: unknown;
  errno?: unknown;
  constraint?: unknown;
  table?: unknown;
  cause?: unknown;
  errors?: unknown;
};

/** The error and its causes (Drizzle's wrapper, the driver's error, an AggregateError's parts), outermost first. */
function chain(error: unknown): DriverError[] {
  const seen: DriverError[] = [];
  const queue: unknown[] = [error];
  while (queue.length && seen.length < 10) {
    const next = queue.shift();
    if (!(next instanceof Error) || seen.includes(next)) continue;
    const current = next as DriverError;
    seen.push(current);
    if (current.cause) queue.push(current.cause);
    if (Array.isArray(current.errors)) queue.push(...current.errors);
  }
  return seen;
}

/** The SQLSTATE of a database error (e.g. '23505'), looking through Drizzle's wrapper. */
export function sqlState(error: unknown): string | undefined {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** The constraint a database error names, if any. */
export function constraintName(error: unknown): string | undefined {
  for (const e of chain(error)) if (typeof e.constraint === 'string') return e.constraint;
  return undefined;
}

/** True when the failure is the database being down, restarting, unreachable or closed (never the data). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return chain(error).some(
    (e) =>
      (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_ERRNOS.has(e.code))) ||
      UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message)),
  );
}

/**
 * Specific messages for unique constraints a user can run into by racing another request; any other unique
 * violation gets the generic message. Add a constraint here when its screen has something better to say.
 */
const UNIQUE_MESSAGES: Record<string, string> = {
  users_email_lower_key: 'A user with this email already exists',
};

const GENERIC_UNIQUE = 'This conflicts with a record that already exists. Reload and try again.';

/**
 * The answer for a database error a request caused or met: 503 for an outage; 409 for a unique violation (or
 * a concurrent change the database refused); 400 for data the database cannot store. Undefined otherwise.
 */
export function appErrorFromDatabase(error: unknown): AppError | undefined {
  if (isDatabaseUnavailable(error))
    return new AppError('UNAVAILABLE', UNAVAILABLE_MESSAGE, { headers: { 'Retry-After': '5' } });
  const state = sqlState(error);
  if (!state) return undefined;
  if (state === '23505') {
    const constraint = constraintName(error);
    return new AppError('CONFLICT', (constraint && UNIQUE_MESSAGES[constraint]) || GENERIC_UNIQUE);
  }
  if (state === '23503') {
    return new AppError(
      'CONFLICT',
      'This record is linked to another one that was changed or removed. Reload and try again.',
    );
  }
  if (state === '40001' || state === '40P01') {
    return new AppError('CONFLICT', 'Someone else changed this at the same time. Please try again.');
  }
  if (state.startsWith('22') || state === '23514' || state === '23502') {
    // Data exceptions (too long, out of range, invalid text) and check constraints: input the schemas let
    // through but the database cannot store.
    return new AppError('BAD_REQUEST', 'Some of the values cannot be stored. Check the fields and try again.');
  }
  return undefined;
}

/**
 * An error in a form that is safe to log: its kind, SQLSTATE, constraint and table, and its message and stack
 * without the query parameters Drizzle appends. Never the parameters, the driver's `detail` (it quotes the
 * conflicting values) or any other property.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const links = chain(error);
  if (!links.length) return { type: typeof error, message: 'non-error thrown' };
  const [outer] = links;
  const constraint = constraintName(error);
  const table = links.find((e) => typeof e.table === 'string')?.table;
  const code = sqlState(error) ?? links.find((e) => typeof e.code === 'string')?.code;
  return {
    type: outer.name,
    message: withoutParams(outer.message),
    ...(code ? { code } : {}),
    ...(constraint ? { constraint } : {}),
    ...(table ? { table } : {}),
    ...(links.length > 1 ? { causes: links.slice(1).map((e) => `${e.name}: ${withoutParams(e.message)}`) } : {}),
    stack: stackWithoutMessage(outer),
  };
}

/** Drizzle's "Failed query: <sql>\nparams: <values>" keeps the SQL (placeholders only) and drops the values. */
function withoutParams(message: string): string {
  const at = message.search(/\n?params:/);
  return (at === -1 ? message : message.slice(0, at)).slice(0, 2000);
}

/** The stack's frames only: its first line repeats the message, parameters included. */
function stackWithoutMessage(error: Error): string | undefined {
  if (!error.stack) return undefined;
  const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.slice(0, 15).join('\n');
}
