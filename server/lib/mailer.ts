import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { outboxEmails } from '../db/schema';

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The record the e-mail is about, e.g. { entity: 'contract', entityId }. */
  entity?: string;
  entityId?: string;
};

export type Mailer = {
  /** Keeps the message in the outbox (inside the caller's transaction); delivery happens after commit. */
  enqueue(db: Db, message: EmailMessage): Promise<string>;
  /** Sends every due message once; returns how many were accepted by the SMTP server. */
  deliverDue(db: Db): Promise<number>;
  /** Asks for a delivery round soon (after the current request's transaction has committed). */
  kick(db: Db): void;
  /** Resolves when no delivery round is running (tests and graceful shutdown). */
  idle(): Promise<void>;
  readonly smtpEnabled: boolean;
};

/**
 * Keeps the message in the outbox inside the caller's transaction, for code that has no Mailer at hand
 * (payments applied by any provider): the outbox is one table, delivery needs no configuration to queue.
 */
export async function enqueueEmail(db: Db, message: EmailMessage): Promise<string> {
  const [row] = await db
    .insert(outboxEmails)
    .values({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      entity: message.entity ?? null,
      entityId: message.entityId ?? null,
    })
    .returning({ id: outboxEmails.id });
  return row.id;
}

export const MAX_ATTEMPTS = 8;
const BATCH = 20;

/** Minutes to wait before attempt n+1: 1, 2, 4, ... capped at six hours. */
export const backoffMinutes = (attempts: number) => Math.min(2 ** Math.max(0, attempts - 1), 360);

/**
 * The outbox is the source of truth for e-mail. With SMTP_URL set, due messages are sent through it
 * and marked sent only once the server accepted them; failures are retried with backoff and marked
 * failed after MAX_ATTEMPTS. Without SMTP_URL, messages stay queued and are shown on the Outbox screen.
 * Claiming uses FOR UPDATE SKIP LOCKED, so every app instance may run delivery at once.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer {
  const transport: Transporter | null = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
  let running: Promise<number> | null = null;

  async function deliverOnce(db: Db): Promise<number> {
    if (!transport) return 0;
    const claimed = await db
      .update(outboxEmails)
      .set({ nextAttemptAt: sql`now() + interval '5 minutes'` })
      .where(
        inArray(
          outboxEmails.id,
          db
            .select({ id: outboxEmails.id })
            .from(outboxEmails)
            .where(and(eq(outboxEmails.status, 'queued'), lte(outboxEmails.nextAttemptAt, sql`now()`)))
            .orderBy(asc(outboxEmails.createdAt))
            .limit(BATCH)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();
    let sent = 0;
    for (const message of claimed) {
      try {
        await transport.sendMail({
          from: config.MAIL_FROM,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? undefined,
        });
        await db
          .update(outboxEmails)
          .set({ status: 'sent', sentAt: new Date(), attempts: message.attempts + 1, lastError: null })
          .where(eq(outboxEmails.id, message.id));
        sent++;
      } catch (error) {
        const attempts = message.attempts + 1;
        await db
          .update(outboxEmails)
          .set({
            attempts,
            lastError: error instanceof Error ? error.message.slice(0, 500) : String(error),
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
            nextAttemptAt: new Date(Date.now() + backoffMinutes(attempts) * 60_000),
          })
          .where(eq(outboxEmails.id, message.id));
      }
    }
    return sent;
  }

  const mailer: Mailer = {
    smtpEnabled: Boolean(transport),
    enqueue: enqueueEmail,
    async deliverDue(db) {
      while (running) await running.catch(() => 0);
      running = deliverOnce(db);
      try {
        return await running;
      } finally {
        running = null;
      }
    },
    kick(db) {
      if (!transport) return;
      setImmediate(() => {
        mailer.deliverDue(db).catch(() => {});
      });
    },
    async idle() {
      await new Promise((resolve) => setImmediate(resolve));
      while (running) await running.catch(() => 0);
    },
  };
  return mailer;
}
