/**
 * Limits of the public payment routes, per client address and route (applied by the app-wide rate limiter,
 * server/plugins/rate-limit.ts): enough for a customer who mistypes a card a few times, too few to guess
 * tokens or test stolen card numbers.
 */
export const PUBLIC_PAYMENT_LIMITS = {
  /** Opening the pay-link or checkout page. */
  read: { max: 60, timeWindow: 60_000 },
  /** Starting a checkout. */
  open: { max: 20, timeWindow: 60_000 },
  /** Submitting a card. */
  pay: { max: 10, timeWindow: 60_000 },
} as const;
