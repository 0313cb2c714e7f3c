import { addDays } from '@shared/billing';
import { addCalendarMonths } from '@shared/contracts/contract-lifecycle';
import { amountDueCents } from '@shared/invoice-amounts';
import { and, asc, eq, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvents, contractPauses, contracts, invoices, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import { runBilling } from '../modules/billing/billing-run';
import { runDunning } from '../modules/dunning/dunning.service';
import { payWithTestCard } from '../modules/payments/demo-payments';
import { applyPayment } from '../modules/payments/payments.service';
import { prepareDemoAutopay } from './seed-autopay';
import { UNPAID_DESCRIPTIONS } from './seed-contracts';
import { recordDemoDelivery } from './seed-delivery';

/**
 * The demo's billing history, produced by the real billing run over a back-dated timeline: every
 * contract that has ever billed starts out active, and the run is stepped from the earliest start date
 * to today (on the 1st of each month, on each contract's start and on each pause or cancellation, then every
 * day of the last two months; each run catches up on the periods that started since the last). Between runs the
 * customers pay what is due: by card through the built-in checkout, by check or wire through the payments
 * core. Some recent invoices stay unpaid (several overdue; four contracts never pay, one at each dunning stage)
 * and one card is declined (paid with another card after the reminders). Four customers pay by autopay from the
 * day they saved a card on the set-up page (seed-autopay.ts): the charge run charges their invoices on their due
 * dates, one soft decline recovered by a new card, one hard decline waiting for one. Dunning runs after each step, as the
 * hourly job does: reminders, pauses for non-payment, resumes; and the delivery of CPM periods that ended is
 * recorded (seed-delivery.ts: one credit, one makegood). Contracts end as
 * the real rules make them end (completed at the term's end plus the grace period), paused and canceled
 * contracts at the date the contract seed gives them.
 */
export async function seedBilling(
  db: Db,
  options: { baseUrl?: string; today?: string; businessName?: string } = {},
): Promise<void> {
  const today = options.today ?? businessToday();
  const baseUrl = options.baseUrl ?? 'http://localhost:3000';
  const dunning = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl,
  };

  const billed = await db
    .select({
      id: contracts.id,
      status: contracts.status,
      startDate: contracts.startDate,
      description: contracts.description,
    })
    .from(contracts)
    .where(
      or(
        inArray(contracts.status, ['active', 'paused', 'completed']),
        and(eq(contracts.status, 'canceled'), isNotNull(contracts.activatedAt)),
      ),
    );
  if (!billed.length) return;
  const [manager] = await db.select().from(users).where(eq(users.email, 'manager@demo.test'));
  const finalStatus = new Map(billed.map((c) => [c.id, c.status]));
  const declinedContract = billed.find((c) => c.description?.startsWith('Pre-roll with QR codes'))?.id;

  // When each paused or canceled contract stopped, from the contract seed's own audit trail.
  const stops = await db
    .select({ contractId: auditEvents.entityId, action: auditEvents.action, at: auditEvents.createdAt })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entity, 'contract'),
        inArray(auditEvents.action, ['contract.paused', 'contract.canceled']),
        inArray(
          auditEvents.entityId,
          billed.map((c) => c.id),
        ),
      ),
    );
  const events = stops
    .map((s) => ({
      contractId: s.contractId,
      status: s.action === 'contract.paused' ? 'paused' : 'canceled',
      on: s.at.toISOString().slice(0, 10),
    }))
    .map((e) => ({ ...e, on: firstDay(e.on, today) }));

  // Back to the beginning: each of them active from its start date (nothing is due before it).
  await db
    .update(contracts)
    .set({ status: 'active' })
    .where(
      inArray(
        contracts.id,
        billed.map((c) => c.id),
      ),
    );

  const earliest = firstDay(today, ...billed.map((c) => c.startDate));
  // Runs on the 1st of each month, on each pause or cancellation and on each contract's start (its first
  // invoice is issued that day), and today.
  const steps = new Set<string>([
    today,
    ...events.map((e) => e.on),
    ...billed.map((c) => c.startDate).filter((day) => day <= today),
  ]);
  for (let month = `${earliest.slice(0, 7)}-01`; month <= today; month = addCalendarMonths(month, 1)) {
    if (month >= earliest) steps.add(month);
  }

  let checkNumber = 2041;
  let declined = false;
  let retry: { invoiceId: string; on: string } | null = null;
  // The last weeks day by day, as the hourly jobs run them: a contract pauses for non-payment on its day, and
  // its later periods wait for the resume.
  for (let day = addDays(today, -DAILY_DAYS); day < today; day = addDays(day, 1)) if (day >= earliest) steps.add(day);

  // Autopay customers (seed-autopay.ts): their cards saved on the set-up page, their invoices charged by the charge
  // run on their due dates (days on which only the charge run is replayed, before the daily weeks).
  const autopay = await prepareDemoAutopay(db, {
    mailer: dunning.mailer,
    baseUrl,
    businessName: options.businessName ?? 'AdCRM Media',
    today,
  });
  const queue = [...steps].sort();
  const chargeDays = new Set<string>();
  for (let index = 0; index < queue.length; index++) {
    const step = queue[index];
    if (chargeDays.has(step)) {
      await autopay.charge(step);
      continue;
    }
    await autopay.saveCards(step);
    for (const event of events.filter((e) => e.on === step)) {
      await db
        .update(contracts)
        .set({ status: event.status, pauseReason: event.status === 'paused' ? 'manual' : null })
        .where(eq(contracts.id, event.contractId));
      if (event.status === 'paused')
        await db.insert(contractPauses).values({ contractId: event.contractId, pausedOn: event.on });
    }
    await runBilling(db, { asOf: step, baseUrl });
    await autopay.charge(step);

    // The customers pay what fell due since the last step.
    const open = await db
      .select({ invoice: invoices, contractDescription: contracts.description })
      .from(invoices)
      .innerJoin(contracts, eq(contracts.id, invoices.contractId))
      .where(and(eq(invoices.status, 'pending'), lte(invoices.periodStart, step)))
      .orderBy(asc(invoices.periodStart), asc(invoices.number));
    for (const { invoice, contractDescription } of open) {
      if (UNPAID_DESCRIPTIONS.has(contractDescription ?? '')) continue;
      if (autopay.pays(invoice.customerId)) {
        // Autopay pays it on its due date: that day joins the replay when no run falls on it.
        if (invoice.dueDate > step && invoice.dueDate <= today && !steps.has(invoice.dueDate)) {
          steps.add(invoice.dueDate);
          chargeDays.add(invoice.dueDate);
          queue.splice(index + 1, queue.length - index - 1, ...[...queue.slice(index + 1), invoice.dueDate].sort());
        }
        continue;
      }
      const plan = paymentPlan(
        { ...invoice, key: `${contractDescription ?? ''}:${invoice.periodIndex}` },
        today,
        finalStatus.get(invoice.contractId) ?? 'active',
        // The contract with the declined card always has payments before and after it.
        invoice.contractId === declinedContract,
      );
      if (plan.method === 'none' || plan.on > step) continue;
      const paidAt = new Date(
        `${plan.on}T${String(9 + (plan.seed % 8)).padStart(2, '0')}:${String((plan.seed * 7) % 60).padStart(2, '0')}:00Z`,
      );
      if (!declined && invoice.contractId === declinedContract && plan.on >= addDays(today, -40)) {
        declined = true;
        // One card declined (the invoice stays failed, payable again from the portal or pay link).
        await payWithTestCard(db, { invoiceId: invoice.id, card: 'declined', paidAt, baseUrl });
        retry = { invoiceId: invoice.id, on: addDays(invoice.dueDate, RETRY_AFTER_DUE_DAYS) };
        continue;
      }
      if (plan.method === 'card') {
        await payWithTestCard(db, { invoiceId: invoice.id, paidAt, baseUrl });
      } else {
        await db.transaction((tx) =>
          applyPayment(tx, {
            invoiceId: invoice.id,
            amountCents: amountDueCents(invoice),
            method: plan.method as 'check' | 'wire',
            provider: 'manual',
            reference: plan.method === 'check' ? `Check #${checkNumber++}` : `Wire ${invoice.number.slice(4)}`,
            paidAt,
          }),
        );
      }
    }
    // The declined card's customer pays with another card after the reminders, before the contract would pause.
    if (retry && retry.on <= step) {
      await payWithTestCard(db, { invoiceId: retry.invoiceId, paidAt: new Date(`${retry.on}T11:20:00Z`), baseUrl });
      retry = null;
    }
    // Dunning as the hourly job runs it: reminders, pauses for non-payment, resumes of paid-up contracts.
    await runDunning(dunning, { asOf: step });
    // The sales manager records the delivery of the CPM periods that have ended (seed-delivery.ts).
    if (manager) await recordDemoDelivery(dunning, manager, step);
  }

  // Paused and canceled contracts end where the contract seed left them; the others as the run made them.
  for (const [id, status] of finalStatus) {
    if (status === 'paused' || status === 'canceled') {
      await db
        .update(contracts)
        .set({ status, pauseReason: status === 'paused' ? 'manual' : null })
        .where(and(eq(contracts.id, id), sql`${contracts.status} <> ${status}`));
    }
  }
}

/** The days before today replayed day by day (before them, on the 1st of each month and on events). */
const DAILY_DAYS = 60;

/** Days after its due date the declined invoice is paid with another card (the pause comes at 21). */
const RETRY_AFTER_DUE_DAYS = 16;

/** The earliest of some YYYY-MM-DD days. */
const firstDay = (...days: string[]) => [...days].sort()[0];

type PlanMethod = 'card' | 'check' | 'wire' | 'none';

/**
 * How and when a demo invoice is paid, the same on every start (keyed by its contract's description and
 * period number, not by ids or dates): most within two weeks of the period's start, by card, check or
 * wire; about one in four recent invoices of running contracts left unpaid.
 */
function paymentPlan(
  invoice: { periodStart: string; key: string },
  today: string,
  finalStatus: string,
  alwaysPaid: boolean,
): { method: PlanMethod; on: string; seed: number } {
  let seed = 7;
  for (const ch of invoice.key) seed = (seed * 31 + ch.charCodeAt(0)) % 1_000_003;
  const on = addDays(invoice.periodStart, 1 + (seed % 13));
  const running = finalStatus === 'active' || finalStatus === 'paused';
  const recent = invoice.periodStart >= addDays(today, -75);
  if (running && recent && !alwaysPaid && seed % 4 === 0) return { method: 'none', on, seed };
  const methods: PlanMethod[] = ['card', 'card', 'check', 'wire', 'card'];
  const method = methods[seed % methods.length];
  // Card payments go through the whole checkout; the older history is paid by check and wire, which is
  // also what keeps the demo's start quick.
  if (method === 'card' && invoice.periodStart < addDays(today, -120))
    return { method: seed % 2 ? 'check' : 'wire', on, seed };
  return { method, on, seed };
}
