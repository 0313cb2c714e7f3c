import { computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import type { ContractSettings, TaxSettings } from '@shared/contracts/settings';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { appSettings, contractLineItems, contracts, invoiceLines, invoices } from '../db/schema';
import { createTestCustomer, createTestPackage, createTestProduct } from './catalog-factories';

/**
 * Contracts inserted directly with the lines, package and setup fee a billing test needs (the contract
 * API's own rules are tested by the contracts suite). Stored figures follow the lines, as the API would.
 */
export async function createBillableContract(
  db: Db,
  options: {
    startDate: string;
    status?: string;
    termMonths?: number | null;
    paymentMode?: 'portal' | 'pay_link';
    customerId?: string;
    salesRepId?: string | null;
    setupFeeCents?: number;
    /** Each line's product is created with this price and seasonal price unless productId is given. */
    lines?: {
      productId?: string;
      quantity?: number;
      unitPriceCents: number;
      discountCents?: number;
      seasonalPriceCents?: number | null;
      priceMetric?: 'monthly' | 'flat' | 'cpm';
      /** Default: the contract's start date. */
      flightStart?: string;
      flightEnd?: string | null;
    }[];
    packagePriceCents?: number | null;
    title?: string | null;
    underDeliveryRemedy?: 'credit' | 'makegood';
    /** Who is invoiced (an agency): default the customer itself (the contracts_bill_to_default trigger). */
    billToCustomerId?: string;
    /** Agency terms (set both, with billToCustomerId another customer: contracts_agency_terms_check). */
    agencyCommissionBp?: number;
    agencyBillingMode?: 'net' | 'gross';
  },
) {
  const customerId = options.customerId ?? (await createTestCustomer(db)).id;
  const pkg =
    options.packagePriceCents === undefined || options.packagePriceCents === null
      ? null
      : await createTestPackage(db, { priceCents: options.packagePriceCents });
  const lines = [];
  for (const [position, line] of (options.lines ?? []).entries()) {
    const productId =
      line.productId ??
      (
        await createTestProduct(db, {
          defaultPriceCents: line.unitPriceCents,
          seasonalPriceCents: line.seasonalPriceCents ?? null,
          priceMetric: line.priceMetric ?? 'monthly',
        })
      ).id;
    const quantity = line.quantity ?? 1;
    const discountCents = line.discountCents ?? 0;
    lines.push({
      productId,
      quantity,
      unitPriceCents: line.unitPriceCents,
      discountCents,
      lineTotalCents: Math.max(0, quantity * line.unitPriceCents - discountCents),
      priceMetric: line.priceMetric ?? 'monthly',
      seasonalPriceCents: line.seasonalPriceCents ?? null,
      flightStart: line.flightStart ?? options.startDate,
      flightEnd: line.flightEnd ?? null,
      position,
    });
  }
  const lineItemsTotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const packagePriceCents = pkg?.priceCents ?? 0;
  const monthly =
    lines.filter((l) => l.priceMetric !== 'flat').reduce((sum, l) => sum + l.lineTotalCents, 0) + packagePriceCents;
  const setupFeeCents = options.setupFeeCents ?? 0;
  const termMonths = options.termMonths ?? null;
  const [contract] = await db
    .insert(contracts)
    .values({
      customerId,
      billToCustomerId: options.billToCustomerId,
      agencyCommissionBp: options.agencyCommissionBp ?? null,
      agencyBillingMode: options.agencyBillingMode ?? null,
      salesRepId: options.salesRepId ?? null,
      title: options.title ?? null,
      description: 'Billing test contract',
      status: options.status ?? 'active',
      startDate: options.startDate,
      termMonths,
      autoStopDate: computeAutoStopDate(options.startDate, termMonths),
      paymentMode: options.paymentMode ?? 'portal',
      underDeliveryRemedy: options.underDeliveryRemedy ?? 'credit',
      packageId: pkg?.id ?? null,
      packagePriceCents,
      lineItemsTotalCents,
      monthlyAmountCents: monthly,
      seasonalMonthlyAmountCents: monthly,
      setupFeeCents,
      totalCents: lineItemsTotalCents + packagePriceCents + setupFeeCents,
      activatedAt: (options.status ?? 'active') === 'active' ? new Date() : null,
    })
    .returning();
  if (lines.length) await db.insert(contractLineItems).values(lines.map((l) => ({ ...l, contractId: contract.id })));
  return { contract, customerId, packageName: pkg?.name ?? null };
}

export async function setTaxSettings(db: Db, value: TaxSettings): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: 'tax', value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value } });
}

/** Saves the contract settings; dunning days left out take their defaults (3, 10 and 21 days). */
export async function setContractSettings(
  db: Db,
  settings: Pick<ContractSettings, 'pausePaymentsAfterExpiry' | 'gracePeriodsEndOfDays'> & Partial<ContractSettings>,
): Promise<void> {
  const value = { firstReminderDays: 3, secondReminderDays: 10, pauseAfterOverdueDays: 21, ...settings };
  await db
    .insert(appSettings)
    .values({ key: 'contracts', value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value } });
}

/** A contract's invoices by period start: each one's subtotal and lines as [kind, description, amount in cents]. */
export async function invoicesByPeriod(db: Db, contractId: string) {
  const rows = await db
    .select({
      periodStart: invoices.periodStart,
      subtotal: invoices.subtotalCents,
      kind: invoiceLines.kind,
      description: invoiceLines.description,
      amount: invoiceLines.amountCents,
    })
    .from(invoices)
    .leftJoin(invoiceLines, eq(invoiceLines.invoiceId, invoices.id))
    .where(eq(invoices.contractId, contractId))
    .orderBy(asc(invoices.periodStart), asc(invoiceLines.position));
  const out: Record<string, { subtotal: number; lines: [string, string, number][] }> = {};
  for (const row of rows) {
    out[row.periodStart] ??= { subtotal: Number(row.subtotal), lines: [] };
    if (row.kind) out[row.periodStart].lines.push([row.kind, row.description ?? '', Number(row.amount)]);
  }
  return out;
}
