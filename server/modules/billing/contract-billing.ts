import { utcToday } from '@shared/billing';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contractPauses, invoices } from '../../db/schema';
import type { Mailer } from '../../lib/mailer';
import { runBilling } from './billing-run';

/**
 * What the contract lifecycle calls: bill a contract at once after it became active or was resumed,
 * and keep the pause intervals the billing run skips.
 */

/**
 * Issues the contract's due invoices now (after the activation or resume has committed) and sends their
 * e-mails. A failure here does not undo the activation: the next scheduled run issues them.
 */
export async function billContractNow(
  deps: { db: Db; mailer: Mailer; baseUrl: string },
  contractId: string,
): Promise<void> {
  try {
    const result = await runBilling(deps.db, { contractId, baseUrl: deps.baseUrl });
    if (result.invoicesIssued > 0) deps.mailer.kick(deps.db);
  } catch (error) {
    process.emitWarning(
      `Billing contract ${contractId} failed; the next billing run issues its invoices: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Inside the pause or resume transaction: a pause opens an interval on today, a resume closes the open
 * one. Periods that start inside an interval are not billed.
 */
export async function recordPauseChange(
  tx: Db,
  contractId: string,
  action: 'pause' | 'resume',
  on: string = utcToday(),
) {
  if (action === 'pause') {
    await tx.insert(contractPauses).values({ contractId, pausedOn: on });
    return;
  }
  await tx
    .update(contractPauses)
    .set({ resumedOn: on })
    .where(and(eq(contractPauses.contractId, contractId), isNull(contractPauses.resumedOn)));
}

/** "Resend Receipt" on a contract: the latest payment's receipt again (409 when there is none). */
export { sendLatestReceipt as resendLatestReceipt } from '../invoices/invoices.service';

/** Invoices are financial records: a contract that has any is kept (canceled), never deleted. */
export const CONTRACT_HAS_INVOICES = 'This contract has invoices, so it is kept for the records and cannot be deleted.';

export async function contractHasInvoices(tx: Db, contractId: string): Promise<boolean> {
  const [row] = await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.contractId, contractId)).limit(1);
  return Boolean(row);
}
