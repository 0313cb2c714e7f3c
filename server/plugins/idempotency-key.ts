/**
 * The Idempotency-Key of a money request (product.md section 16, decision 040): the header's name, the keys it
 * takes, how long a key is kept, and what a refused key answers. The plugin (plugins/idempotency.ts) and the
 * API reference (plugins/openapi.ts) both read them from here.
 */

/** The header as the API reference and the messages spell it. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The same header as Node gives it in `request.headers` (lower case). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The header that marks an answer replayed from a key's first response. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** The longest key taken, in characters. */
export const IDEMPOTENCY_KEY_MAX = 255;
/** 1 to IDEMPOTENCY_KEY_MAX visible ASCII characters (0x21-0x7E): no spaces, no control characters, nothing else. */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** How long a key's first response is replayed; an older row counts as absent (and is purged hourly). */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/**
 * How long a claim may stay `running` before another request with the same key may take it over: the
 * instance that claimed it died mid-request. Far longer than any money request takes.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 5 * 60;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: `${IDEMPOTENCY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (no spaces)`,
  noCaller: `An ${IDEMPOTENCY_HEADER} can only be used by a signed-in caller`,
  inProgress: `A request with this ${IDEMPOTENCY_HEADER} is still in progress`,
  mismatch: `This ${IDEMPOTENCY_HEADER} was used with a different request`,
} as const;
