import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { outboxEmails } from '../db/schema';
import { maskCapabilityLinks } from './capability-links';

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
  /** Waits for the current round and closes the SMTP connections (the app's onClose). */
  close(): Promise<void>;
  readonly smtpEnabled: boolean;
};

/**
 * What the outbox row of a message holds: `text` and `html` as staff may read them (capability links
 * masked), and the full parts for the SMTP delivery only when they differ (lib/capability-links.ts).
 */
function outboxValues(message: EmailMessage) {
  const text = maskCapabilityLinks(message.text);
  const html = message.html === undefined ? null : maskCapabilityLinks(message.html);
  return {
    to: message.to,
    subject: message.subject,
    text,
    html,
    deliveryText: text === message.text ? null : message.text,
    deliveryHtml: html === (message.html ?? null) ? null : (message.html ?? null),
    entity: message.entity ?? null,
    entityId: message.entityId ?? null,
  };
}

/**
 * Keeps the message in the outbox inside the caller's transaction, for code that has no Mailer at hand
 * (payments applied by any provider): the outbox is one table, delivery needs no configuration to queue.
 */
export async function enqueueEmail(db: Db, message: EmailMessage): Promise<string> {
  const [row] = await db.insert(outboxEmails).values(outboxValues(message)).returning({ id: outboxEmails.id });
  return row.id;
}

/**
 * Keeps many messages in one statement per batch (the billing run's invoice e-mails): an INSERT ... SELECT
 * FROM unnest(arrays) takes a handful of parameters however many messages there are.
 */
export async function enqueueEmails(db: Db, messages: readonly EmailMessage[]): Promise<void> {
  for (let at = 0; at < messages.length; at += ENQUEUE_BATCH) {
    const rows = messages.slice(at, at + ENQUEUE_BATCH).map(outboxValues);
    const column = <K extends keyof (typeof rows)[number]>(key: K) => sql.param(rows.map((row) => row[key]));
    await db.execute(sql`
      insert into outbox_emails ("to", subject, text, html, delivery_text, delivery_html, entity, entity_id)
      select * from unnest(${column('to')}::text[], ${column('subject')}::text[], ${column('text')}::text[],
                           ${column('html')}::text[], ${column('deliveryText')}::text[], ${column('deliveryHtml')}::text[],
                           ${column('entity')}::text[], ${column('entityId')}::text[])`);
  }
}

const ENQUEUE_BATCH = 2_500;

export const MAX_ATTEMPTS = 8;
const BATCH = 20;
/** SMTP connections kept open and used at once. */
const SMTP_CONNECTIONS = 5;

/** Minutes to wait before attempt n+1: 1, 2, 4, ... capped at six hours. */
export const backoffMinutes = (attempts: number) => Math.min(2 ** Math.max(0, attempts - 1), 360);

/**
 * The outbox is the source of truth for e-mail. With SMTP_URL set, due messages are sent through it
 * and marked sent only once the server accepted them; failures are retried with backoff and marked
 * failed after MAX_ATTEMPTS. Without SMTP_URL, messages stay queued and are shown on the Outbox screen.
 * Claiming uses FOR UPDATE SKIP LOCKED, so every app instance may run delivery at once. The connections to
 * the SMTP server are pooled and a batch is sent over several of them at once.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer {
  const transport: Transporter | null = config.SMTP_URL
    ? nodemailer.createTransport({ url: config.SMTP_URL, pool: true, maxConnections: SMTP_CONNECTIONS })
    : null;
  let running: Promise<number> | null = null;

  /** Claims and sends one batch of due messages: how many were claimed and how many the server accepted. */
  async function deliverBatch(db: Db, transport: Transporter): Promise<{ claimed: number; sent: number }> {
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
    const outcomes = await Promise.all(
      claimed.map(async (message) => {
        try {
          await transport.sendMail({
            from: config.MAIL_FROM,
            to: message.to,
            subject: message.subject,
            text: message.deliveryText ?? message.text,
            html: message.deliveryHtml ?? message.html ?? undefined,
          });
          // Once delivered, the full link is kept nowhere: only the recipient's mailbox has it.
          await db
            .update(outboxEmails)
            .set({
              status: 'sent',
              sentAt: new Date(),
              attempts: message.attempts + 1,
              lastError: null,
              deliveryText: null,
              deliveryHtml: null,
            })
            .where(eq(outboxEmails.id, message.id));
          return true;
        } catch (error) {
          const attempts = message.attempts + 1;
          const failed = attempts >= MAX_ATTEMPTS;
          await db
            .update(outboxEmails)
            .set({
              attempts,
              lastError: error instanceof Error ? error.message.slice(0, 500) : String(error),
              status: failed ? 'failed' : 'queued',
              ...(failed ? { deliveryText: null, deliveryHtml: null } : {}),
              nextAttemptAt: new Date(Date.now() + backoffMinutes(attempts) * 60_000),
            })
            .where(eq(outboxEmails.id, message.id));
          return false;
        }
      }),
    );
    return { claimed: claimed.length, sent: outcomes.filter(Boolean).length };
  }

  /** Batch after batch until none is left due: a claimed message is not due again in this round. */
  async function deliverOnce(db: Db): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    for (;;) {
      const batch = await deliverBatch(db, transport);
      sent += batch.sent;
      if (batch.claimed < BATCH) return sent;
    }
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
    async close() {
      await mailer.idle();
      transport?.close();
    },
  };
  return mailer;
}
