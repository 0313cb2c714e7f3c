/**
 * E-mail delivery on billing day (issue item 5: >= 50 messages per second to an SMTP server on the same
 * machine). On a database of its own (adcrm_bench_email on BENCH_PG_URL, created here and dropped at the
 * end), each round queues 5,000 invoice e-mails with enqueueEmails (BENCH_EMAIL_MESSAGES), then two mailers
 * deliver them at once as two app instances would (lib/mailer.ts: each with its own pool of database
 * connections and its own SMTP pool) to an SMTP server in a child process, which counts every Message-ID it
 * accepts. Measured from the first claim to the last row marked sent (both deliverDue calls resolved); the
 * round fails unless every message was received exactly once and every row is marked sent.
 *
 * Baseline, in the same rounds: nodemailer alone, the same two pools of connections, sending the same
 * messages with no database (what SMTP over the loopback allows on this machine).
 *
 *   npx tsx bench/email.ts                      3 rounds (BENCH_ROUNDS), 5,000 messages (BENCH_EMAIL_MESSAGES)
 *
 * Entry point for `npm run bench` (bench/run.ts, group `email`): `bench(context)`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { type Database, openDatabase } from '../server/db/client';
import { createMailer, type EmailMessage, enqueueEmails } from '../server/lib/mailer';
import { messageIdOf } from '../server/test/smtp';
import { benchDb } from './lib/databases';
import { median, spread } from './lib/stats';
import type { BenchContext, BenchRow } from './lib/table';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EMAIL_DB = benchDb('email');
const MESSAGES = Number(process.env.BENCH_EMAIL_MESSAGES ?? 5_000);
const GOAL_PER_SECOND = 50;
const MAIL_FROM = 'AdCRM <billing@adcrm.bench>';
/** The SMTP connections of one mailer (SMTP_CONNECTIONS in lib/mailer.ts): the baseline uses as many. */
const CONNECTIONS_PER_INSTANCE = 10;
const say = (text: string) => console.error(`[email] ${text}`);

// ---------------------------------------------------------------------------------------------------------
// The SMTP server: a child process (`--smtp-sink`) counting the Message-IDs it accepts
// ---------------------------------------------------------------------------------------------------------

type SinkReport = { received: number; distinct: number; duplicates: number; withoutId: number };
type SinkMessage = { port: number } | { reset: true } | { report: SinkReport };

function runSink(): void {
  const counts = new Map<string, number>();
  let withoutId = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      // Only the header is read: enough for the Message-ID, and no body (with its links) is kept.
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8_192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const id = messageIdOf(head);
        if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
        else withoutId++;
        callback();
      });
    },
  });
  // A sender that goes away mid-message resets its connection; smtp-server reports it as an 'error' event,
  // which would end the sink. The message was not accepted: the sender sends it again.
  server.on('error', () => {});
  server.listen(0, '127.0.0.1', () => {
    process.send!({ port: (server.server.address() as AddressInfo).port } satisfies SinkMessage);
  });
  process.on('message', (message: { type: 'reset' | 'report' }) => {
    if (message.type === 'reset') {
      counts.clear();
      withoutId = 0;
      process.send!({ reset: true } satisfies SinkMessage);
    } else {
      const values = [...counts.values()];
      process.send!({
        report: {
          received: values.reduce((sum, n) => sum + n, 0) + withoutId,
          distinct: counts.size,
          duplicates: values.filter((n) => n > 1).length,
          withoutId,
        },
      } satisfies SinkMessage);
    }
  });
  process.on('disconnect', () => process.exit(0));
}

type Sink = { url: string; reset(): Promise<void>; report(): Promise<SinkReport>; stop(): void };

async function startSink(): Promise<Sink> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--smtp-sink'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<SinkMessage>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the SMTP server exited (${code})`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(message as SinkMessage);
      });
    });
  const ready = await next();
  if (!('port' in ready)) throw new Error('the SMTP server did not report its port');
  return {
    url: `smtp://127.0.0.1:${ready.port}`,
    async reset() {
      const answer = next();
      child.send({ type: 'reset' });
      await answer;
    },
    async report() {
      const answer = next();
      child.send({ type: 'report' });
      const message = await answer;
      if (!('report' in message)) throw new Error('the SMTP server did not report');
      return message.report;
    },
    stop: () => child.kill('SIGTERM'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The messages, the database, the rounds
// ---------------------------------------------------------------------------------------------------------

/** Invoice e-mails as the billing run writes them: a pay link each (kept whole only for the delivery). */
function invoiceEmails(count: number): EmailMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const number = `INV-2026-${String(i + 1).padStart(6, '0')}`;
    const link = `https://crm.bench.test/p/${Buffer.from(`bench-token-${i}`).toString('base64url')}`;
    const amount = `$${(250 + (i % 40) * 25).toLocaleString('en-US')}.00`;
    return {
      to: `billing${i}@customer${i % 500}.example.test`,
      subject: `Invoice ${number}: ${amount} due 2026-12-08`,
      text: [
        'Hello,',
        '',
        `Invoice ${number} for Campaign ${i} is ready: ${amount}, due 2026-12-08.`,
        '',
        `Pay securely: ${link}`,
        '',
        'Thank you for your business.',
        'AdCRM Media',
      ].join('\n'),
      html: `<p>Hello,</p><p>Invoice <strong>${number}</strong> for Campaign ${i} is ready: ${amount}, due 2026-12-08.</p><p><a href="${link}">Pay securely</a></p><p>Thank you for your business.<br>AdCRM Media</p>`,
      entity: 'invoice',
      entityId: number,
    };
  });
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(pgUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** One round of ours: messages per second from the first claim to the last row marked sent. */
async function deliverRound(instances: [Database, Database], sink: Sink, messages: EmailMessage[]) {
  const [a, b] = instances;
  await a.db.execute('truncate outbox_emails');
  await enqueueEmails(a.db, messages);
  await a.db.execute('vacuum analyze outbox_emails');
  await sink.reset();
  const mailers = [createMailer({ SMTP_URL: sink.url, MAIL_FROM }), createMailer({ SMTP_URL: sink.url, MAIL_FROM })];
  try {
    const started = performance.now();
    const [sentByA, sentByB] = await Promise.all([mailers[0].deliverDue(a.db), mailers[1].deliverDue(b.db)]);
    const seconds = (performance.now() - started) / 1000;
    const [stored] = rowsOf<{ sent: number; other: number }>(
      await a.db.execute(
        `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as other
         from outbox_emails`,
      ),
    );
    const report = await sink.report();
    const problems = [
      stored.sent !== messages.length && `${stored.sent} of ${messages.length} rows sent (${stored.other} not)`,
      report.distinct !== messages.length && `${report.distinct} distinct messages received`,
      report.duplicates > 0 && `${report.duplicates} messages received more than once`,
      report.withoutId > 0 && `${report.withoutId} messages without a Message-ID`,
    ].filter((problem): problem is string => Boolean(problem));
    return { rate: messages.length / seconds, seconds, split: [sentByA, sentByB], problems };
  } finally {
    await Promise.all(mailers.map((mailer) => mailer.close()));
  }
}

/** One round of the baseline: the same messages over two nodemailer pools, no database. */
async function baselineRound(sink: Sink, messages: EmailMessage[]) {
  await sink.reset();
  const pools = [0, 1].map(() =>
    nodemailer.createTransport({
      url: sink.url,
      pool: true,
      maxConnections: CONNECTIONS_PER_INSTANCE,
      maxMessages: 1_000,
    }),
  );
  try {
    const started = performance.now();
    await Promise.all(
      messages.map((message, i) =>
        pools[i % 2].sendMail({
          from: MAIL_FROM,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: `<baseline-${i}@adcrm.bench>`,
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const report = await sink.report();
    if (report.distinct !== messages.length) throw new Error(`baseline: ${report.distinct} messages received`);
    return { rate: messages.length / seconds };
  } finally {
    for (const pool of pools) pool.close();
  }
}

/** `npm run bench`'s e-mail row: messages per second end to end, the goal >= 50 msg/s. */
export async function bench(context: BenchContext): Promise<BenchRow[]> {
  const rounds = Math.max(context.quick ? 2 : 3, context.rounds);
  const messages = invoiceEmails(MESSAGES);
  const url = databaseUrl(context.pgUrl, EMAIL_DB);
  await admin(context.pgUrl, `drop database if exists ${EMAIL_DB} with (force)`);
  await admin(context.pgUrl, `create database ${EMAIL_DB}`);
  const sink = await startSink();
  const instances: Database[] = [];
  try {
    instances.push(await openDatabase({ url }), await openDatabase({ url }));
    await instances[0].migrate();
    // Warm-up, not counted: connections opened, statements planned, code compiled, on both sides.
    const warmUp = messages.slice(0, 500);
    await deliverRound([instances[0], instances[1]], sink, warmUp);
    await baselineRound(sink, warmUp);
    const ours: Awaited<ReturnType<typeof deliverRound>>[] = [];
    const base: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      // Alternating which side goes first, as the other rows do.
      const sides = round % 2 ? (['ours', 'base'] as const) : (['base', 'ours'] as const);
      for (const side of sides) {
        if (side === 'ours') ours.push(await deliverRound([instances[0], instances[1]], sink, messages));
        else base.push((await baselineRound(sink, messages)).rate);
      }
      const last = ours.at(-1)!;
      say(
        `round ${round}/${rounds}: ours ${last.rate.toFixed(0)} msg/s (${last.seconds.toFixed(2)} s, ` +
          `instances ${last.split.join(' + ')}), nodemailer alone ${base.at(-1)!.toFixed(0)} msg/s` +
          (last.problems.length ? `; ${last.problems.join('; ')}` : ''),
      );
    }
    const rates = ours.map((r) => r.rate);
    const problems = [...new Set(ours.flatMap((r) => r.problems))];
    return [
      {
        name: `E-mail delivery, ${MESSAGES.toLocaleString('en-US')} queued messages, two instances at once, SMTP server on the same machine`,
        ours: `${spread(rates)} msg/s (${spread(
          ours.map((r) => r.seconds),
          1,
        )} s)`,
        baseline: `nodemailer alone, same ${2 * CONNECTIONS_PER_INSTANCE} connections, no database: ${spread(base)} msg/s`,
        ratio: spread(
          rates.map((rate, i) => rate / base[i]),
          2,
        ),
        goal: `>= ${GOAL_PER_SECOND} msg/s`,
        met: median(rates) >= GOAL_PER_SECOND && problems.length === 0,
        note: problems.length
          ? problems.join('; ')
          : `${rounds} rounds; from the first claim to the last row marked sent, PostgreSQL; every message received exactly once (Message-IDs counted by the SMTP server, a child process)`,
      },
    ];
  } finally {
    for (const instance of instances) await instance.close();
    sink.stop();
    await admin(context.pgUrl, `drop database if exists ${EMAIL_DB} with (force)`);
  }
}

if (process.argv.includes('--smtp-sink') && process.send) {
  runSink();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const rows = await bench({ pgUrl: PG_URL, rounds, quick: Boolean(process.env.BENCH_QUICK), seed: 1 });
  for (const row of rows) {
    console.log(`${row.met ? 'ok  ' : 'SLOW'} ${row.name}: ${row.ours}; ${row.baseline} (${row.goal})`);
  }
}
