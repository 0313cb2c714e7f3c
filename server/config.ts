import { isTimeZone } from '@shared/billing';
import { emailAddress } from '@shared/contracts/common';
import { z } from 'zod';
import { parseStorageUrl } from './storage-url';
import { trustProxySchema } from './trust-proxy';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  /**
   * Uploaded files in an S3-compatible object store instead of DATA_DIR/uploads (decision 028):
   * s3://bucket?endpoint=URL&region=R&forcePathStyle=true, each option optional; credentials from the standard
   * AWS variables. Checked by storage-url.ts; its message names what is wrong, never the value.
   */
  STORAGE_URL: z
    .string()
    .trim()
    .optional()
    .superRefine((value, ctx) => {
      if (!value) return;
      try {
        parseStorageUrl(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^STORAGE_URL /, '') });
      }
    }),
  ADMIN_EMAIL: emailAddress('ADMIN_EMAIL must be an e-mail address').optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('AdCRM <billing@adcrm.local>'),
  /** The business named on invoices, invoice PDFs, receipts and the pay-link page. */
  BUSINESS_NAME: z.string().trim().min(1).default('AdCRM Media'),
  /**
   * The business's time zone (IANA, e.g. America/New_York): "today" for billing, due dates and dunning, and
   * the zone of the background jobs' cron schedules.
   */
  BUSINESS_TIMEZONE: z
    .string()
    .trim()
    .default('UTC')
    .refine(isTimeZone, 'BUSINESS_TIMEZONE must be an IANA time zone such as UTC or America/New_York'),
  PUBLIC_URL: z.string().url().optional(),
  /** Reverse proxies allowed to set X-Forwarded-For / -Proto: unset (none), a hop count, or addresses. */
  TRUST_PROXY: trustProxySchema,
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 60),
  SESSION_MAX_DAYS: z.coerce.number().int().positive().default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CLIENT_DIST: z.string().default('./dist/client'),
  /**
   * How long a claimed message is reserved for the instance sending it; a message claimed by an instance
   * that died is sent again after it.
   */
  OUTBOX_LEASE_SECONDS: z.coerce.number().int().positive().default(120),
  /**
   * Seconds a running background job's lease lasts unless its instance renews it (every third of it): a job
   * whose instance died runs again on another one once its lease has ended (lib/job-queue.ts).
   */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** Creatives one user may upload in an hour, and the megabytes of creatives one customer may keep. */
  CREATIVE_UPLOADS_PER_HOUR: z.coerce.number().int().positive().default(30),
  CREATIVE_STORAGE_MB: z.coerce.number().int().positive().default(1024),
  /** Requests one API key may make in a minute, counted across every instance (then 429 with Retry-After). */
  API_KEY_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  /**
   * Webhook deliveries (decision 042): how often each instance's worker looks for due deliveries while idle, the
   * time a receiver has to answer, and how long a claimed delivery is reserved for the instance sending it (a
   * delivery claimed by an instance that died is sent again after it; longer than the timeout).
   */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  WEBHOOK_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** Both set: card payments go through Stripe Checkout; otherwise through the built-in checkout. */
  STRIPE_SECRET_KEY: z.string().trim().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  /** Another Stripe API address (stripe-mock, a test fake); Stripe's own when unset. */
  STRIPE_API_BASE: z.string().url().optional(),
});

export type Config = z.infer<typeof envSchema>;

/** Parses the environment once, at start-up; an invalid variable stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
