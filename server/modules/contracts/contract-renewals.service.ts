import { CONTRACT_ACCESS_MESSAGES } from '@shared/contracts/contract-access';
import { type ContractBody, contractBodySchema } from '@shared/contracts/contract-api';
import { addCalendarMonths } from '@shared/contracts/contract-lifecycle';
import type { Contract } from '@shared/contracts/contract-responses';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import {
  RENEWAL_MESSAGES,
  type RenewalDue,
  type RenewalListQuery,
  type RenewalNoticeDays,
  renewRefusal,
} from '@shared/contracts/renewals';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { businessToday } from '../../lib/business-day';
import { constraintName, sqlState } from '../../lib/db-errors';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { previewContracts } from '../billing/billing.service';
import type { SessionUser } from '../sessions/sessions';
import { insertDueRenewalNotices, selectRenewalsDue } from './contract-renewals.repo';
import { canReadContract, canWriteContract } from './contracts.dto';
import { type ContractDeps, createContract, findContractDetail } from './contracts.service';

type Actor = SessionUser;

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

// ---------------------------------------------------------------------------------------------------------
// Renewals due (GET /api/renewals)
// ---------------------------------------------------------------------------------------------------------

/**
 * Running contracts whose term ends within `withinDays` (product.md section 15), soonest first: a rep's own,
 * everyone's for holders of contract:read:any. Amounts come from the billing engine's figures.
 */
export async function listRenewalsDue(
  db: Db,
  actor: Actor,
  query: RenewalListQuery,
): Promise<{ rows: RenewalDue[]; total: number }> {
  const today = businessToday();
  const page = await selectRenewalsDue(db, {
    today,
    withinDays: query.withinDays,
    salesRepId: can(actor, 'contract:read:any') ? undefined : actor.id,
    limit: query.limit,
    offset: query.offset,
  });
  const previews = await previewContracts(
    db,
    page.rows.map((row) => row.contract),
  );
  return {
    total: page.total,
    rows: page.rows.map((row) => {
      const c = row.contract;
      const preview = previews.get(c.id)!;
      const autoStopDate = c.autoStopDate as string;
      return {
        id: c.id,
        title: c.title,
        description: c.description,
        status: c.status,
        customerId: c.customerId,
        customerName: row.customerName,
        salesRepId: c.salesRepId,
        salesRepName:
          row.salesRepFirstName === null ? null : `${row.salesRepFirstName} ${row.salesRepLastName ?? ''}`.trim(),
        startDate: c.startDate,
        termMonths: c.termMonths as number,
        autoStopDate,
        daysLeft: daysBetween(today, autoStopDate),
        monthlyAmount: centsToAmount(preview.monthlyCents),
        termValue: preview.termValueCents === null ? null : centsToAmount(preview.termValueCents),
        lastNoticeDays: row.lastNoticeDays as RenewalNoticeDays | null,
        renewedBy: row.renewedBy,
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Renew (POST /api/contracts/{id}/renew)
// ---------------------------------------------------------------------------------------------------------

/**
 * A draft renewing a running or completed contract with a term (product.md section 15): the same customer,
 * rep, payment mode, package, term, title and lines (product, quantity, unit price, discount), starting on
 * the original's auto-stop date; each line takes its product's current in-season price (none when the
 * product has none) and its flight moved by the term (calendar months, clamped to the month's end); no
 * setup fee (charged once per customer relationship). Made through the create path (the same validation and
 * line snapshots), linked by renewal_of_id in the same insert: a second renewal, even one racing this one,
 * breaks contracts_renewal_of_key and gets 409.
 */
/**
 * Who hears of a renewal drafted (modules above contracts: the pipeline links its renewal deal), after the
 * draft is saved. Registering the same function again changes nothing.
 */
type AfterRenewal = (db: Db, renewedContractId: string) => Promise<void>;
const afterRenewal: AfterRenewal[] = [];
export function registerAfterRenewal(hook: AfterRenewal): void {
  if (!afterRenewal.includes(hook)) afterRenewal.push(hook);
}

export async function renewContract(deps: ContractDeps, actor: Actor, id: string): Promise<Contract> {
  const detail = await findContractDetail(deps.db, id);
  if (!detail || !canReadContract(actor, detail.contract)) throw notFound('Contract');
  if (!canWriteContract(actor, detail.contract)) throw forbidden(CONTRACT_ACCESS_MESSAGES.cannotChange);
  const original = detail.contract;
  const refusal = renewRefusal({ ...original, renewedBy: detail.renewedBy });
  if (refusal) throw conflict(refusal);
  const term = original.termMonths as number;
  const moved = (date: string | null) => (date === null ? null : addCalendarMonths(date, term));
  const parsed = contractBodySchema.safeParse({
    customerId: original.customerId,
    title: original.title,
    description: original.description,
    startDate: original.autoStopDate,
    termMonths: term,
    setupFee: 0,
    paymentMode: original.paymentMode,
    underDeliveryRemedy: original.underDeliveryRemedy,
    packageId: original.packageId,
    salesRepId: original.salesRepId,
    lineItems: detail.lineItems.map(({ line }) => ({
      productId: line.productId,
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
      discount: centsToAmount(line.discountCents),
      // Left out: the product's current in-season price (lineSnapshot), null when it has none.
      flightStart: moved(line.flightStart),
      flightEnd: moved(line.flightEnd),
    })),
  });
  // What the original holds passed these rules when it was sold; a rule tightened since is said, not thrown.
  if (!parsed.success) throw badRequest(parsed.error.issues.map((issue) => issue.message).join('; '));
  const body: ContractBody = parsed.data;
  try {
    const renewal = await createContract(deps, actor, body, { renewalOf: original });
    for (const hook of afterRenewal) await hook(deps.db, original.id);
    return renewal;
  } catch (error) {
    if (sqlState(error) === '23505' && constraintName(error) === 'contracts_renewal_of_key') {
      const now = await findContractDetail(deps.db, id);
      throw conflict(now?.renewedBy ? RENEWAL_MESSAGES.alreadyRenewed(now.renewedBy.id) : RENEWAL_MESSAGES.notRunning);
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Renewal notices (the daily renewal-notices job)
// ---------------------------------------------------------------------------------------------------------

const contractName = (c: { id: string; title: string | null; description: string | null }) =>
  c.title?.trim() || c.description?.trim().slice(0, 60) || `Contract #${shortContractId(c.id, 6)}`;

/**
 * The renewal notices (product.md section 15): 60, 30 and 7 days before a running contract's auto-stop date
 * its rep is told, in-app and by e-mail as their contract-updates preference says, each step once per
 * contract and end date (renewal_notices' primary key; a moved end date re-arms them). A contract first seen
 * inside several windows at once (created late, or after downtime) records every due step but notifies
 * only the most urgent. The 30-day step is the "contract ending soon" notice. Returns how many reps were
 * told (the caller kicks the outbox).
 */
export async function sendRenewalNotices(db: Db, options: { baseUrl: string; today?: string }): Promise<number> {
  const today = options.today ?? businessToday();
  return db.transaction(async (tx) => {
    const inserted = await insertDueRenewalNotices(tx, today);
    let told = 0;
    for (const row of inserted) {
      if (!row.sales_rep_id) continue;
      const name = contractName({ id: row.contract_id, title: row.title, description: row.description });
      const days = daysBetween(today, row.auto_stop_date);
      const when = days === 1 ? 'tomorrow' : `in ${days} days`;
      const body = `${name} for ${row.customer_name} ends on ${row.auto_stop_date} (${when}). Renew it from the contract page or the dashboard.`;
      const link = `/contracts/${row.contract_id}`;
      await notify(tx, {
        to: { userIds: [row.sales_rep_id] },
        type: 'contract_expiring',
        title: 'Contract ending soon',
        body,
        link,
        entity: 'contract',
        entityId: row.contract_id,
        // The 30-day step keeps the key of the earlier expiry notice, so a contract told before is not told twice.
        dedupeKey:
          row.days_before === 30
            ? `contract_expiring:${row.contract_id}:${row.auto_stop_date}`
            : `renewal_due:${row.contract_id}:${row.auto_stop_date}:${row.days_before}`,
        email: { subject: `Contract ending soon: ${name}`, text: `${body}\n\n${options.baseUrl}${link}` },
      });
      told++;
    }
    return told;
  });
}
