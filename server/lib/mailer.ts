import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { outboxEmails } from '../db/schema';
import type { OutboxAttachment } from '../db/schema/outbox';
import { maskCapabilityLinks } from './capability-links';
import { createStorage, type Storage } from './storage';

export type { OutboxAttachment };

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The record the e-mail is about, e.g. { entity: 'contract', entityId }. */
  entity?: string;
  entityId?: string;
  /** Files already in storage (lib/storage.ts) the delivery attaches; nothing secret may be in them. */
  attachments?: OutboxAttachment[];
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
    attachments: message.attachments?.length ? message.attachments : null,
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
/** Messages one claim takes. */
const BATCH = 100;
/** Batches one mailer has in flight at once: while one is claimed or marked, the others keep the pool busy. */
const BATCHES_IN_FLIGHT = 3;
/** SMTP connections kept open and used at once: every send of every batch in flight waits for one. */
const SMTP_CONNECTIONS = 10;
/** Messages one connection sends before it is replaced by a fresh one. */
const MESSAGES_PER_CONNECTION = 1_000;
/** OUTBOX_LEASE_SECONDS when the caller's configuration has none (server/config.ts). */
const DEFAULT_LEASE_SECONDS = 120;

/** Marking touches only rows still queued: a row another instance has marked meanwhile keeps its state. */
const stillQueued = eq(outboxEmails.status, 'queued');

/** Minutes to wait before attempt n+1: 1, 2, 4, ... capped at six hours. */
export const backoffMinutes = (attempts: number) => Math.min(2 ** Math.max(0, attempts - 1), 360);

/**
 * The Message-ID of an outbox row: the same on every attempt, so a message sent again after an instance died
 * between the server's acceptance and the row's marking is the same message for the receiving server.
 */
export function messageIdFor(id: string, mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?$/.exec(mailFrom.trim())?.[1]?.toLowerCase() ?? 'adcrm.local';
  return `<${id}@${domain}>`;
}

/** Runs at most `size` tasks at once; the others wait in arrival order. */
function limiter(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < size) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiting task, or is given back.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

type OutboxRow = typeof outboxEmails.$inferSelect;

export type MailerConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM'> &
  Partial<Pick<Config, 'OUTBOX_LEASE_SECONDS' | 'DATA_DIR' | 'STORAGE_URL'>>;

/** The bytes of a stored attachment, read when its message is sent. */
async function attachmentContent(storage: Storage | null, attachment: OutboxAttachment): Promise<Buffer> {
  if (!storage) throw new Error(`No storage configured to read the attachment ${attachment.filename}`);
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(attachment.storageKey)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The outbox is the source of truth for e-mail. With SMTP_URL set, due messages are sent through it
 * and marked sent only once the server accepted them; failures are retried with backoff and marked
 * failed after MAX_ATTEMPTS. Without SMTP_URL, messages stay queued and are shown on the Outbox screen.
 *
 * Delivery (docs/decisions/006-email-outbox.md): a claim takes up to BATCH due rows with FOR UPDATE SKIP
 * LOCKED, so every app instance may run delivery at once and no two claim the same row, and reserves them
 * for OUTBOX_LEASE_SECONDS (their next_attempt_at moves to the lease's end; a row claimed by an instance that
 * died is due again when the lease ends). Up to BATCHES_IN_FLIGHT batches are sent at once over a pool of
 * SMTP_CONNECTIONS connections; a send that could not start within half the lease is given back instead, so
 * that no send outlives its lease in normal operation. A message is marked sent as soon as the server
 * accepted it, a failure with its own error and backoff; both touch only rows still queued.
 */
export function createMailer(config: MailerConfig): Mailer {
  const leaseSeconds = config.OUTBOX_LEASE_SECONDS ?? DEFAULT_LEASE_SECONDS;
  const leaseMs = leaseSeconds * 1000;
  // A send starts in the first half of its lease, and a connection silent for the other half is given up
  // (nodemailer's own defaults are minutes): a send that hangs fails instead of outliving its lease by much.
  // Never under 10 s, though: a busy server is not a dead one (short leases are for tests).
  const timeoutMs = Math.min(60_000, Math.max(10_000, leaseMs / 2));
  const transport: Transporter | null = config.SMTP_URL
    ? nodemailer.createTransport({
        url: config.SMTP_URL,
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
        maxMessages: MESSAGES_PER_CONNECTION,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      })
    : null;
  // Attachments are read from the same storage the app writes them to (DATA_DIR or STORAGE_URL).
  const storage =
    config.DATA_DIR || config.STORAGE_URL
      ? createStorage({ DATA_DIR: config.DATA_DIR ?? '', STORAGE_URL: config.STORAGE_URL })
      : null;
  const sendSlot = limiter(SMTP_CONNECTIONS);
  let running: Promise<number> | null = null;

  /** Takes up to BATCH due rows for this instance for the lease. */
  const claim = (db: Db) =>
    db
      .update(outboxEmails)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
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

  /** A claimed message: accepted (and marked), given back unsent (its lease was half over), or failed. */
  type Outcome = { kind: 'sent' } | { kind: 'released' } | { kind: 'failed'; error: unknown };

  /** Sends a claimed batch and marks it: how many messages the server accepted. */
  async function sendBatch(db: Db, transport: Transporter, claimed: OutboxRow[], claimedAt: number) {
    const outcomes = await Promise.all(
      claimed.map((message) =>
        sendSlot(async (): Promise<Outcome> => {
          if (performance.now() - claimedAt > leaseMs / 2) return { kind: 'released' };
          try {
            const attachments = await Promise.all(
              (message.attachments ?? []).map(async (attachment) => ({
                filename: attachment.filename,
                contentType: attachment.contentType,
                content: await attachmentContent(storage, attachment),
              })),
            );
            await transport.sendMail({
              from: config.MAIL_FROM,
              to: message.to,
              subject: message.subject,
              text: message.deliveryText ?? message.text,
              html: message.deliveryHtml ?? message.html ?? undefined,
              messageId: messageIdFor(message.id, config.MAIL_FROM),
              ...(attachments.length ? { attachments } : {}),
            });
          } catch (error) {
            return { kind: 'failed', error };
          }
          // Marked the moment the server accepted it: an instance that dies now can leave at most the
          // messages of its open connections accepted but unmarked (sent again, same Message-ID, after the
          // lease). Once delivered, the full link is kept nowhere: only the recipient's mailbox has it.
          await db
            .update(outboxEmails)
            .set({
              status: 'sent',
              sentAt: sql`now()`,
              attempts: sql`${outboxEmails.attempts} + 1`,
              lastError: null,
              deliveryText: null,
              deliveryHtml: null,
            })
            .where(and(eq(outboxEmails.id, message.id), stillQueued));
          return { kind: 'sent' };
        }),
      ),
    );
    const idsWhere = (kind: Outcome['kind']) => {
      const ids = claimed.filter((_, i) => outcomes[i].kind === kind).map((message) => message.id);
      return ids.length ? and(sql`${outboxEmails.id} = any(${sql.param(ids)}::uuid[])`, stillQueued) : null;
    };
    const released = idsWhere('released');
    if (released) await db.update(outboxEmails).set({ nextAttemptAt: sql`now()` }).where(released);
    for (const [i, message] of claimed.entries()) {
      const outcome = outcomes[i];
      if (outcome.kind !== 'failed') continue;
      const attempts = message.attempts + 1;
      const failed = attempts >= MAX_ATTEMPTS;
      await db
        .update(outboxEmails)
        .set({
          attempts,
          lastError: outcome.error instanceof Error ? outcome.error.message.slice(0, 500) : String(outcome.error),
          status: failed ? 'failed' : 'queued',
          ...(failed ? { deliveryText: null, deliveryHtml: null } : {}),
          nextAttemptAt: new Date(Date.now() + backoffMinutes(attempts) * 60_000),
        })
        .where(and(eq(outboxEmails.id, message.id), stillQueued));
    }
    return outcomes.filter((outcome) => outcome.kind === 'sent').length;
  }

  /**
   * Batch after batch until a claim finds nothing due (a claimed message is not due again in this round). One
   * batch at first; each full batch claimed starts another, up to BATCHES_IN_FLIGHT.
   */
  async function deliverOnce(db: Db): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    let done = false;
    const batches: Promise<void>[] = [];
    const inFlight = async () => {
      try {
        while (!done) {
          const claimedAt = performance.now();
          const claimed = await claim(db);
          if (claimed.length === 0) done = true;
          else {
            // A full batch: there may be more, so another batch is claimed while this one is sent.
            if (claimed.length === BATCH && batches.length < BATCHES_IN_FLIGHT) batches.push(inFlight());
            // Added after the await: `sent += await ...` would read the total before the other batches add to it.
            const accepted = await sendBatch(db, transport, claimed, claimedAt);
            sent += accepted;
          }
        }
      } catch (error) {
        done = true;
        throw error;
      }
    };
    batches.push(inFlight());
    // Every batch started, including those started while waiting for the first ones, has ended.
    const settled: PromiseSettledResult<void>[] = [];
    for (let i = 0; i < batches.length; i++) settled.push(...(await Promise.allSettled([batches[i]])));
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
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
    async close() {
      await mailer.idle();
      transport?.close();
    },
  };
  return mailer;
}
