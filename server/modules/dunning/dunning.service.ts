import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { readCompanyProfile } from '../../lib/company-profile';
import { loggableError } from '../../lib/db-errors';
import { enqueueEmails, type Mailer } from '../../lib/mailer';
import { billContractNow } from '../billing/billing.service';
import { changeContractStatuses } from '../contract-status/contract-status.service';
import { invoiceMailFacts, invoiceReminderEmail, mailRowRecipient, payWhereOf } from '../invoices/invoices.emails';
import { notifyNonPaymentPause } from '../notifications/contract-notices';
import { getSettings } from '../settings/settings.service';
import {
  emitOverdueInvoices,
  noOverdueInvoice,
  type ReminderRow,
  recordDueReminders,
  recordPauseSteps,
  selectContractOfInvoice,
  selectContractsToPause,
  selectContractsToResume,
} from './dunning.repo';

/**
 * Dunning (product.md section 14): an invoice unpaid after its due date is overdue. The customer is
 * reminded at due + firstReminderDays and due + secondReminderDays (contract settings; each step once per
 * invoice), with the contract's pay link or the client portal's address by its payment mode. At due +
 * pauseAfterOverdueDays (0: never) the contract is paused for non-payment, its rep and finance are told;
 * once none of its invoices is overdue it resumes by itself and the periods of the pause are billed.
 *
 * Runs with every billing run (on start and hourly) and after each payment, catching up on every step that
 * is due. Each step is decided by one statement's row count (dunning_steps' primary key, the contract
 * status writer's conditional UPDATE), so runs on several instances at once do each thing once.
 */

export type DunningDeps = { db: Db; mailer: Mailer; baseUrl: string };

export type DunningResult = { reminders: number; paused: number; resumed: number };

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const addDays = (day: string, days: number) => new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);

/** Runs every dunning step that is due up to `asOf` (default today), for every contract or one. */
export async function runDunning(
  deps: DunningDeps,
  options: { asOf?: string; contractId?: string } = {},
): Promise<DunningResult> {
  const asOf = options.asOf ?? businessToday();
  const contractId = options.contractId ?? null;
  const settings = await getSettings(deps.db, 'contracts');

  // A contract whose overdue invoices are paid resumes first: a payment never waits for the reminders.
  const resumed = await resumePaidUp(deps, asOf, contractId);

  const reminders = await deps.db.transaction(async (tx) => {
    // Other systems hear once of each invoice that became overdue (webhooks), as dunning first sees it.
    await emitOverdueInvoices(tx, { asOf, contractId });
    const due = await recordDueReminders(tx, {
      asOf,
      contractId,
      steps: [
        { step: 'first_reminder', days: settings.firstReminderDays },
        { step: 'second_reminder', days: settings.secondReminderDays },
      ],
    });
    const pausesAfter = settings.pauseAfterOverdueDays;
    if (due.length > 0) {
      const company = await readCompanyProfile(tx);
      await enqueueEmails(
        tx,
        due.map((row) =>
          reminderEmail(deps.baseUrl, row, asOf, pausesAfter > 0 ? addDays(row.due_date, pausesAfter) : null, company),
        ),
      );
    }
    await recordAudits(
      tx,
      due.map((row) => ({
        actorId: null,
        action: 'invoice.reminder_sent',
        entity: 'invoice',
        entityId: row.id,
        after: { step: row.step, number: row.number, daysOverdue: daysBetween(row.due_date, asOf) },
      })),
    );
    return due.length;
  });

  const paused =
    settings.pauseAfterOverdueDays > 0 ? await pauseOverdue(deps, asOf, contractId, settings.pauseAfterOverdueDays) : 0;
  if (reminders > 0 || paused > 0 || resumed > 0) deps.mailer.kick(deps.db);
  return { reminders, paused, resumed };
}

/**
 * After a payment has committed: the dunning of its contract (a paid-up contract resumes and bills the
 * periods of its pause). A failure here never undoes the payment: the next hourly run catches up.
 */
export async function dunningAfterPayment(deps: DunningDeps, ref: { contractId?: string; invoiceId?: string }) {
  try {
    const contractId = ref.contractId ?? (ref.invoiceId ? await selectContractOfInvoice(deps.db, ref.invoiceId) : null);
    if (contractId) await runDunning(deps, { contractId });
  } catch (error) {
    process.emitWarning(`Dunning after a payment failed; the next run catches up: ${loggableError(error).message}`);
  }
}

/**
 * Pauses, in one conditional UPDATE, the active contracts with an invoice unpaid `days` after its due date;
 * records the pause step of those invoices and tells each contract's rep and finance, in the same transaction.
 */
async function pauseOverdue(deps: DunningDeps, asOf: string, contractId: string | null, days: number) {
  const candidates = await selectContractsToPause(deps.db, { asOf, days, contractId });
  if (candidates.length === 0) return 0;
  const byContract = new Map(candidates.map((c) => [c.contractId, c]));
  return deps.db.transaction(async (tx) => {
    const changed = await changeContractStatuses(tx, [...byContract.keys()], {
      action: 'pause',
      pauseReason: 'non_payment',
      actorId: null,
      baseUrl: deps.baseUrl,
      cause: `non-payment: an invoice unpaid ${days} days after its due date`,
      on: asOf,
    });
    const paused = changed.map(({ row }) => ({ row, overdue: byContract.get(row.id)! }));
    await recordPauseSteps(
      tx,
      paused.flatMap(({ overdue }) => overdue.invoiceIds),
    );
    for (const { row, overdue } of paused) {
      await notifyNonPaymentPause(tx, {
        contract: row,
        change: 'paused',
        overdueInvoices: overdue.numbers,
        baseUrl: deps.baseUrl,
      });
    }
    return paused.length;
  });
}

/**
 * Resumes, in one conditional UPDATE, the contracts paused for non-payment none of whose invoices is overdue
 * any more (re-checked in the UPDATE itself: an invoice that became overdue meanwhile keeps one paused),
 * tells their rep and finance, then bills each (the periods that started during the pause: the service ran).
 */
async function resumePaidUp(deps: DunningDeps, asOf: string, contractId: string | null): Promise<number> {
  const candidates = await selectContractsToResume(deps.db, { asOf, contractId });
  if (candidates.length === 0) return 0;
  const resumed = await deps.db.transaction(async (tx) => {
    const changed = await changeContractStatuses(tx, candidates, {
      action: 'resume',
      actorId: null,
      baseUrl: deps.baseUrl,
      cause: 'overdue invoices paid',
      on: asOf,
      onlyIf: sql`contracts.pause_reason = 'non_payment' and ${noOverdueInvoice(asOf)}`,
    });
    for (const { row } of changed) {
      await notifyNonPaymentPause(tx, { contract: row, change: 'resumed', overdueInvoices: [], baseUrl: deps.baseUrl });
    }
    return changed.map(({ row }) => row.id);
  });
  for (const id of resumed) await billContractNow(deps, id, asOf);
  return resumed.length;
}

function reminderEmail(
  baseUrl: string,
  row: ReminderRow,
  asOf: string,
  pausesOn: string | null,
  company: CompanyProfile,
) {
  return invoiceReminderEmail({
    invoice: invoiceMailFacts(row, Number(row.credited_cents)),
    customer: mailRowRecipient(row),
    company,
    pay: payWhereOf(baseUrl, row),
    step: row.step,
    daysOverdue: daysBetween(row.due_date, asOf),
    pausesOn: pausesOn && pausesOn > asOf ? pausesOn : null,
  });
}
