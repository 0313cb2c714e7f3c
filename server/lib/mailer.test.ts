import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openDatabase } from '../db/client';
import { outboxEmails } from '../db/schema';
import { openTestDatabase } from '../test/app';
import { withDatabase } from '../test/global-setup';
import { type SmtpCatcher, type SmtpOptions, startSmtp } from '../test/smtp';
import { createMailer, type EmailMessage, enqueueEmails, MAX_ATTEMPTS, type Mailer, messageIdFor } from './mailer';

const MAIL_FROM = 'AdCRM <billing@adcrm.local>';

let database: Database;
/** The same database through a pool of its own on PostgreSQL: a second app instance. */
let second: { db: Db; close(): Promise<void> };
/** What each test started, closed after it (mailers before the SMTP server they hold connections to). */
let mailers: Mailer[] = [];
let servers: SmtpCatcher[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  if (database.engine === 'postgres') {
    const { rows } = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const other = await openDatabase({ url: withDatabase(process.env.TEST_DATABASE_URL!, rows[0].name) });
    second = { db: other.db, close: other.close };
  } else {
    // One PGlite database has one connection: both instances share it (the race is not real there).
    second = { db: database.db, close: async () => {} };
  }
});
afterEach(async () => {
  await Promise.all(mailers.map((mailer) => mailer.close()));
  await Promise.all(servers.map((server) => server.close()));
  mailers = [];
  servers = [];
  await database.db.delete(outboxEmails);
});
afterAll(async () => {
  await second.close();
  await database.close();
});

async function smtpServer(options: SmtpOptions = {}) {
  const server = await startSmtp(options);
  servers.push(server);
  return server;
}

function mailer(smtp: SmtpCatcher, leaseSeconds?: number) {
  const created = createMailer({ SMTP_URL: smtp.url, MAIL_FROM, OUTBOX_LEASE_SECONDS: leaseSeconds });
  mailers.push(created);
  return created;
}

/** Queues `count` messages, each with a pay link (kept whole only for the delivery); their ids in order. */
async function enqueue(count: number, to = (i: number) => `client${i}@example.test`): Promise<string[]> {
  const messages: EmailMessage[] = Array.from({ length: count }, (_, i) => ({
    to: to(i),
    subject: `Invoice ${i}`,
    text: `Invoice ${i}. Pay securely: https://crm.example.test/p/token${i}x`,
    html: `<p>Invoice ${i}. <a href="https://crm.example.test/p/token${i}x">Pay</a></p>`,
  }));
  await enqueueEmails(database.db, messages);
  const rows = await database.db
    .select({ id: outboxEmails.id, subject: outboxEmails.subject })
    .from(outboxEmails)
    .where(
      inArray(
        outboxEmails.subject,
        messages.map((m) => m.subject),
      ),
    );
  const bySubject = new Map(rows.map((row) => [row.subject, row.id]));
  return messages.map((m) => bySubject.get(m.subject)!);
}

const rows = () => database.db.select().from(outboxEmails);
const row = async (id: string) => (await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0];
const messageId = (id: string) => `<${id}@adcrm.local>`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How many times the server received each Message-ID. */
function receivedCounts(smtp: SmtpCatcher): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const mail of smtp.received) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
  return counts;
}

describe('messageIdFor', () => {
  it('is the row id at the domain of MAIL_FROM, or adcrm.local', () => {
    expect(messageIdFor('abc', 'AdCRM <billing@Mail.Example.COM>')).toBe('<abc@mail.example.com>');
    expect(messageIdFor('abc', 'billing@example.test')).toBe('<abc@example.test>');
    expect(messageIdFor('abc', 'AdCRM')).toBe('<abc@adcrm.local>');
  });
});

describe('outbox delivery', () => {
  it('two instances delivering the same outbox at once send every message exactly once', async () => {
    const smtp = await smtpServer();
    const ids = await enqueue(300);
    const [a, b] = [mailer(smtp), mailer(smtp)];

    const [sentByA, sentByB] = await Promise.all([a.deliverDue(database.db), b.deliverDue(second.db)]);

    expect(sentByA + sentByB).toBe(300);
    const counts = receivedCounts(smtp);
    expect(
      [...counts.values()].filter((n) => n > 1),
      'messages received more than once',
    ).toEqual([]);
    expect(new Set(counts.keys())).toEqual(new Set(ids.map(messageId)));
    const stored = await rows();
    expect(stored).toHaveLength(300);
    for (const message of stored) {
      expect(message).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      expect(message.sentAt).toBeInstanceOf(Date);
      // The full link is erased once sent: only the recipient's mailbox has it.
      expect([message.deliveryText, message.deliveryHtml]).toEqual([null, null]);
    }
    // The link arrived whole.
    const first = smtp.received.find((mail) => mail.messageId === messageId(ids[0]))!;
    expect(first.raw).toContain('https://crm.example.test/p/token0x');
    expect(await a.deliverDue(database.db)).toBe(0);
  });

  it('holds a claimed message for the lease: another instance sends it only once the lease has ended, and once', async () => {
    const smtp = await smtpServer();
    const [id] = await enqueue(1);
    // An instance claimed it (the mailer's claim, as SQL) and died before sending.
    await database.db.execute(
      sql`update outbox_emails set next_attempt_at = now() + make_interval(secs => 120) where id = ${id}`,
    );
    const other = mailer(smtp);

    expect(await other.deliverDue(database.db)).toBe(0);
    expect(smtp.received).toHaveLength(0);
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0 });

    // The lease ends.
    await database.db.execute(
      sql`update outbox_emails set next_attempt_at = now() - interval '1 second' where id = ${id}`,
    );
    expect(await other.deliverDue(database.db)).toBe(1);
    expect(await other.deliverDue(database.db)).toBe(0);
    expect(smtp.received.map((mail) => mail.messageId)).toEqual([messageId(id)]);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, deliveryText: null });
  });

  it('claims for OUTBOX_LEASE_SECONDS: while one instance sends, another finds nothing due', async () => {
    let leftSeconds: number | null = null;
    let sentByOther: number | null = null;
    let other: Mailer | undefined;
    const smtp = await smtpServer({
      async beforeAccept() {
        const { rows } = (await database.db.execute(
          sql`select extract(epoch from next_attempt_at - now())::float8 as left from outbox_emails`,
        )) as unknown as { rows: { left: number }[] };
        leftSeconds = rows[0].left;
        sentByOther = await other!.deliverDue(second.db);
      },
    });
    const [id] = await enqueue(1);
    other = mailer(smtp);

    expect(await mailer(smtp, 3600).deliverDue(database.db)).toBe(1);

    expect(leftSeconds).toBeGreaterThan(3500);
    expect(leftSeconds).toBeLessThanOrEqual(3600);
    expect(sentByOther).toBe(0);
    expect(smtp.received.map((mail) => mail.messageId)).toEqual([messageId(id)]);
  });

  it('a recipient the server refuses is retried alone; the rest of the batch is marked sent', async () => {
    const smtp = await smtpServer({ rejectRecipients: ['bounce@example.test'] });
    const ids = await enqueue(6, (i) => (i === 3 ? 'bounce@example.test' : `client${i}@example.test`));
    const send = mailer(smtp);

    const before = Date.now();
    expect(await send.deliverDue(database.db)).toBe(5);

    expect(new Set(smtp.received.map((mail) => mail.messageId))).toEqual(
      new Set(ids.filter((_, i) => i !== 3).map(messageId)),
    );
    for (const [i, id] of ids.entries()) {
      const message = await row(id);
      if (i === 3) {
        expect(message).toMatchObject({ status: 'queued', attempts: 1, sentAt: null });
        expect(message.lastError).toContain('550');
        // Backoff: the first retry a minute later; the full link is kept for it.
        expect(message.nextAttemptAt.getTime() - before).toBeGreaterThan(55_000);
        expect(message.nextAttemptAt.getTime() - before).toBeLessThan(70_000);
        expect(message.deliveryText).toContain('/p/token3x');
      } else {
        expect(message).toMatchObject({ status: 'sent', attempts: 1, lastError: null, deliveryText: null });
      }
    }

    // Its last attempt fails it for good, and the full link is erased.
    await database.db
      .update(outboxEmails)
      .set({ attempts: MAX_ATTEMPTS - 1, nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(outboxEmails.id, ids[3]));
    expect(await send.deliverDue(database.db)).toBe(0);
    expect(await row(ids[3])).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      deliveryText: null,
      deliveryHtml: null,
    });
    expect(smtp.received).toHaveLength(5);
  });

  it('marks only rows still queued: a row another instance marked meanwhile is not counted twice', async () => {
    let id = '';
    const smtp = await smtpServer({
      async beforeAccept() {
        // Another instance (its lease had ended) sent and marked it while this one was sending.
        await database.db
          .update(outboxEmails)
          .set({ status: 'sent', attempts: 4, sentAt: new Date('2030-01-01T00:00:00Z') })
          .where(eq(outboxEmails.id, id));
      },
    });
    [id] = await enqueue(1);

    expect(await mailer(smtp).deliverDue(database.db)).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 4, sentAt: new Date('2030-01-01T00:00:00Z') });
  });

  it('does not start a send after half its lease: a message waiting that long is given back, never sent twice', async () => {
    // Lease 6 s; the server takes 2.4 s per message, so the pool's ten connections send 30 messages in three
    // waves (0, 2.4 and 4.8 s). The third would end after the lease, while another instance takes it again.
    const smtp = await smtpServer({ beforeAccept: () => sleep(2_400) });
    const ids = await enqueue(30);
    const first = mailer(smtp, 6);
    const other = mailer(smtp, 6);

    const round = first.deliverDue(database.db);
    let finished = false;
    void round.finally(() => {
      finished = true;
    });
    // The other instance polls as the interval job does, from once the first has claimed the batch.
    while ((await rows()).some((message) => message.nextAttemptAt.getTime() <= Date.now())) await sleep(20);
    let sentByOther = 0;
    while (!finished || (await rows()).some((message) => message.status === 'queued')) {
      sentByOther += await other.deliverDue(second.db);
      await sleep(250);
    }

    expect((await round) + sentByOther).toBe(30);
    const counts = receivedCounts(smtp);
    expect(
      [...counts.values()].filter((n) => n > 1),
      'messages received more than once',
    ).toEqual([]);
    expect(new Set(counts.keys())).toEqual(new Set(ids.map(messageId)));
    expect((await rows()).every((message) => message.status === 'sent' && message.attempts === 1)).toBe(true);
  }, 30_000);
});
