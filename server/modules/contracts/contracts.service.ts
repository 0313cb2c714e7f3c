import { randomBytes } from 'node:crypto';
import { AGENCY_MESSAGES } from '@shared/contracts/agencies';
import { CONTRACT_ACCESS_MESSAGES } from '@shared/contracts/contract-access';
import type { ContractBody, ContractListQuery } from '@shared/contracts/contract-api';
import {
  actionFor,
  type ContractAction,
  canTransition,
  computeAutoStopDate,
  deleteRefusal,
  editRefusal,
  resendRefusal,
  transitionRefusal,
} from '@shared/contracts/contract-lifecycle';
import type { Contract, ContractSummary, PaymentLinkResponse } from '@shared/contracts/contract-responses';
import { CONTRACT_MESSAGES, type ContractStatus, lineIssues } from '@shared/contracts/contract-vocabulary';
import { DEFAULT_UNDER_DELIVERY_REMEDY } from '@shared/contracts/delivery-vocabulary';
import { flightEndRequiredMessage } from '@shared/contracts/inventory';
import { soldFlight } from '@shared/contracts/line-flight';
import { PRICE_METRICS, type PriceMetric } from '@shared/contracts/product-vocabulary';
import { lineTotalCents } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import type { BoundedTotal } from '../../lib/bounded-count';
import { businessToday } from '../../lib/business-day';
import { payLink } from '../../lib/capability-links';
import { readCompanyProfile } from '../../lib/company-profile';
import { assertNoFieldErrors, badRequest, conflict, type FieldErrors, forbidden, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { Storage } from '../../lib/storage';
import {
  billContractNow,
  CONTRACT_HAS_INVOICES,
  contractHasInvoices,
  previewContracts,
} from '../billing/billing.service';
import { changeContractStatus } from '../contract-status/contract-status.service';
import { agencyOfRecordOn } from '../customers/customers.service';
import {
  type IssuedInsertionOrder,
  insertionOrderSummaries,
  issueInsertionOrder,
  newVersionRefusal,
  openInsertionOrderLink,
  supersedeInsertionOrder,
} from '../insertion-orders/insertion-orders.service';
import { assertUnitsAvailable, startHold } from '../inventory/inventory.service';
import { portalUrl, preparePortalAccess } from '../invitations/invitations.service';
import type { SessionUser } from '../sessions/sessions';
import { assertClientAccountPossible } from '../users/client-accounts.service';
import { auditView, canReadContract, canWriteContract, toContract, toContractSummary } from './contracts.dto';
import { type ContractEmailFacts, payLinkEmail, portalInvitationEmail } from './contracts.emails';
import { storedFigures } from './contracts.figures';
import {
  type ContractDetailRows,
  type ContractRow,
  deleteContractRow,
  insertContract,
  lockContract,
  type PackageRow,
  type ProductRow,
  replaceLineItems,
  type SendableCustomer,
  selectContract,
  selectContractDetail,
  selectContractPage,
  selectContractParties,
  selectCustomer,
  selectLineItems,
  selectPackage,
  selectProducts,
  selectUser,
  updateContractRow,
} from './contracts.repo';

type Actor = SessionUser;

/**
 * What contract services need beyond the database: the outbox, the address links in e-mails point at, and
 * for "Send to Customer" the storage of the insertion orders' PDFs and the business's name printed on them.
 */
export type ContractDeps = { db: Db; mailer: Mailer; baseUrl: string; storage: Storage };

const CONTRACT_NOT_FOUND = 'Contract';
const SALES_REP_ROLES = ['sales', 'sales_manager'];

// ---------------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------------

export async function listContracts(
  db: Db,
  actor: Actor,
  query: ContractListQuery,
  baseUrl: string,
): Promise<{ rows: ContractSummary[] } & BoundedTotal> {
  const ownOnly = !can(actor, 'contract:read:any') || query.mine;
  const page = await selectContractPage(db, {
    status: query.status,
    q: query.q || undefined,
    customerId: query.customerId,
    salesRepId: ownOnly ? actor.id : undefined,
    pauseReason: query.reason,
    expiring: query.expiring ? { from: businessToday(), days: query.expiring } : undefined,
    limit: query.limit,
    offset: query.offset,
  });
  const previews = await previewContracts(
    db,
    page.rows.map((row) => row.contract),
  );
  return {
    ...page,
    rows: page.rows.map((row) => toContractSummary(actor, row, baseUrl, previews.get(row.contract.id)!)),
  };
}

/** The contract with its customer, package and line items; 404 for one the caller may not see. */
export async function getContract(db: Db, actor: Actor, id: string, baseUrl: string): Promise<Contract> {
  const detail = await selectContractDetail(db, id);
  if (!detail || !canReadContract(actor, detail.contract)) throw notFound(CONTRACT_NOT_FOUND);
  const [previews, ios] = await Promise.all([
    previewContracts(db, [detail.contract]),
    insertionOrderSummaries(db, [id]),
  ]);
  return toContract(actor, detail, baseUrl, previews.get(id)!, ios.get(id) ?? null);
}

/**
 * The stored contract with its customer, package and lines, for modules that decide themselves who may see
 * it (the client portal shows a client its own); null when there is none.
 */
export async function findContractDetail(db: Db, id: string): Promise<ContractDetailRows | null> {
  return selectContractDetail(db, id);
}

// ---------------------------------------------------------------------------------------------------------
// Create, edit, delete
// ---------------------------------------------------------------------------------------------------------

/**
 * `renewalOf`: the contract this one renews (contract-renewals.service.ts), linked in the same insert; a
 * second renewal of it breaks contracts_renewal_of_key and rolls everything back.
 */
export async function createContract(
  deps: ContractDeps,
  actor: Actor,
  body: ContractBody,
  options: { renewalOf?: ContractRow } = {},
): Promise<Contract> {
  const salesRepId = await resolveSalesRep(deps.db, actor, body.salesRepId, null);
  const refs = await loadReferences(deps.db, body, new Set());
  const billing = await resolveBillTo(deps.db, body, refs.customer);
  const figures = computeFigures(body, refs);
  const status = requestedStatus(body, 'draft') ?? 'draft';
  const delivery = status === 'sent' ? await prepareDelivery(deps.db, body.paymentMode, billing.parties.billTo) : null;

  const id = await deps.db.transaction(async (tx) => {
    // Every contract starts as a draft; a contract created sent or live reaches that status through the one
    // writer of contract status, in the same transaction, so that it raises what any send or activation raises
    // (its audit event, its webhook event, the activation notice).
    let row = await insertContract(tx, {
      customerId: body.customerId,
      ...billing.terms,
      salesRepId,
      title: body.title,
      description: body.description,
      status: 'draft',
      startDate: body.startDate,
      termMonths: body.termMonths,
      autoStopDate: computeAutoStopDate(body.startDate, body.termMonths),
      paymentMode: body.paymentMode,
      underDeliveryRemedy: body.underDeliveryRemedy ?? DEFAULT_UNDER_DELIVERY_REMEDY,
      packageId: body.packageId,
      ...figures.contract,
      createdBy: actor.id,
      renewalOfId: options.renewalOf?.id ?? null,
    });
    await replaceLineItems(tx, row.id, figures.lines);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'contract.created',
      entity: 'contract',
      entityId: row.id,
      after: auditView(row, figures.lines),
    });
    if (status !== 'draft') {
      const action: ContractAction = status === 'active' ? 'activate' : 'send';
      const changed = await changeContractStatus(tx, row.id, { action, actorId: actor.id, baseUrl: deps.baseUrl });
      if (!changed) throw new Error(`A new draft could not become ${status}`);
      row = changed.row;
    }
    if (status === 'sent') await startHold(tx, row.id);
    await assertUnitsAvailable(tx, row.id, { actor });
    if (options.renewalOf) {
      await recordAudit(tx, {
        actorId: actor.id,
        action: 'contract.renewed',
        entity: 'contract',
        entityId: options.renewalOf.id,
        before: { renewedBy: null },
        after: { renewedBy: row.id },
      });
    }
    if (delivery) row = await deliverContract(tx, deps, actor, row, billing.parties, delivery);
    return row.id;
  });
  if (delivery) deps.mailer.kick(deps.db);
  if (status === 'active') await billContractNow(deps, id);
  return getContract(deps.db, actor, id, deps.baseUrl);
}

export async function updateContract(
  deps: ContractDeps,
  actor: Actor,
  id: string,
  body: ContractBody,
): Promise<Contract> {
  const existing = await findWritable(deps.db, actor, id);
  const refusal = editRefusal(existing);
  if (refusal) throw conflict(refusal);
  const salesRepId = await resolveSalesRep(deps.db, actor, body.salesRepId, existing.salesRepId);
  // Products already on the contract stay allowed even if archived since, and keep the metric they were sold with.
  const currentLines = await selectLineItems(deps.db, id);
  const refs = await loadReferences(deps.db, body, new Set(currentLines.map((line) => line.productId)));
  const figures = computeFigures(body, refs, new Map(currentLines.map((line) => [line.productId, line.priceMetric])));
  const billing = await billToOfEdit(deps.db, existing, body, refs.customer);
  const target = requestedStatus(body, existing.status);
  const delivery =
    target === 'sent' && existing.status !== 'sent'
      ? await prepareDelivery(deps.db, body.paymentMode, billing.parties.billTo)
      : null;

  await deps.db.transaction(async (tx) => {
    const locked = await lockWritable(tx, actor, id);
    const lockedRefusal = editRefusal(locked);
    if (lockedRefusal) throw conflict(lockedRefusal);
    const beforeLines = await selectLineItems(tx, id);
    let row = await updateContractRow(tx, id, {
      customerId: body.customerId,
      ...billing.terms,
      salesRepId,
      title: body.title,
      description: body.description,
      startDate: body.startDate,
      termMonths: body.termMonths,
      autoStopDate: computeAutoStopDate(body.startDate, body.termMonths),
      paymentMode: body.paymentMode,
      ...(body.underDeliveryRemedy ? { underDeliveryRemedy: body.underDeliveryRemedy } : {}),
      packageId: body.packageId,
      ...figures.contract,
    });
    await replaceLineItems(tx, id, figures.lines);
    // A sent contract's insertion order no longer matches it: the next send makes its next version.
    if (locked.status === 'sent') await supersedeInsertionOrder(tx, { contractId: id, actorId: actor.id });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'contract.updated',
      entity: 'contract',
      entityId: id,
      before: auditView(locked, beforeLines),
      after: auditView(row, figures.lines),
    });
    if (target && target !== locked.status) {
      const action = actionFor(locked.status, target);
      if (!action) throw conflict(statusChangeRefusal(locked.status, target));
      const changed = await applyTransition(tx, deps, actor, id, action, {
        parties: billing.parties,
        delivery:
          action === 'send' ? (delivery ?? (await prepareDelivery(tx, row.paymentMode, billing.parties.billTo))) : null,
      });
      if (!changed) throw conflict(statusChangeRefusal(locked.status, target));
      row = changed;
      if (action === 'send') await startHold(tx, id);
    }
    await assertUnitsAvailable(tx, id, { actor });
  });
  deps.mailer.kick(deps.db);
  if (target === 'active') await billContractNow(deps, id);
  return getContract(deps.db, actor, id, deps.baseUrl);
}

export async function deleteContract(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockWritable(tx, actor, id);
    const refusal = deleteRefusal(row);
    if (refusal) throw conflict(refusal);
    if (await contractHasInvoices(tx, id)) throw conflict(CONTRACT_HAS_INVOICES);
    const lines = await selectLineItems(tx, id);
    await deleteContractRow(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'contract.deleted',
      entity: 'contract',
      entityId: id,
      before: auditView(row, lines),
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Status actions, pay link, receipt
// ---------------------------------------------------------------------------------------------------------

/** send, activate, pause, resume, cancel: the updated contract, or 409 naming the current status. */
export async function transitionContract(
  deps: ContractDeps,
  actor: Actor,
  id: string,
  action: Exclude<ContractAction, 'complete'>,
  options: { reason?: string } = {},
): Promise<Contract> {
  let delivery: Delivery | null = null;
  let parties: ContractParties | undefined;
  if (action === 'send') {
    // Check the portal account can be created before the transaction, not while holding the lock.
    const existing = await findWritable(deps.db, actor, id);
    if (existing.status === 'sent') return sendNewVersion(deps, actor, id);
    if (!canTransition(existing.status, action)) throw conflict(transitionRefusal(action, existing.status));
    parties = await sendableParties(deps.db, id);
    delivery = await prepareDelivery(deps.db, existing.paymentMode, parties.billTo);
  }
  const existing = await findWritable(deps.db, actor, id);
  const changed = await deps.db.transaction(async (tx) => {
    const updated = await applyTransition(tx, deps, actor, id, action, { reason: options.reason, parties, delivery });
    if (updated && action === 'send') await startHold(tx, id);
    if (updated && (action === 'send' || action === 'activate')) await assertUnitsAvailable(tx, id, { actor });
    return updated;
  });
  if (!changed) {
    const current = await selectContract(deps.db, id);
    throw conflict(transitionRefusal(action, current?.status ?? existing.status));
  }
  if (delivery) deps.mailer.kick(deps.db);
  if (action === 'activate' || action === 'resume') await billContractNow(deps, id);
  return getContract(deps.db, actor, id, deps.baseUrl);
}

/**
 * "Send to Customer" on a contract already sent: allowed when its newest insertion order version is
 * superseded (the contract was edited) or declined, or it has none; it makes version N+1 (the status stays
 * sent) and e-mails the new link. Otherwise 409 naming the version with the customer. Decided under the
 * contract's row lock.
 */
async function sendNewVersion(deps: ContractDeps, actor: Actor, id: string): Promise<Contract> {
  const existing = await findWritable(deps.db, actor, id);
  const parties = await sendableParties(deps.db, id);
  const delivery = await prepareDelivery(deps.db, existing.paymentMode, parties.billTo);
  await deps.db.transaction(async (tx) => {
    const row = await lockWritable(tx, actor, id);
    if (row.status !== 'sent') throw conflict(transitionRefusal('send', row.status));
    const refusal = await newVersionRefusal(tx, id);
    if (refusal) throw conflict(refusal);
    await assertUnitsAvailable(tx, id);
    await deliverContract(tx, deps, actor, row, parties, delivery, 'new-version');
  });
  deps.mailer.kick(deps.db);
  return getContract(deps.db, actor, id, deps.baseUrl);
}

/**
 * E-mails a sent contract to its customer again (the same pay link, or a fresh portal invitation), with the
 * figures as they bill today. One locked read decides: a contract that is no longer sent answers 409.
 */
export async function resendContract(deps: ContractDeps, actor: Actor, id: string): Promise<Contract> {
  const existing = await findWritable(deps.db, actor, id);
  const refusal = resendRefusal(existing.status);
  if (refusal) throw conflict(refusal);
  const parties = await sendableParties(deps.db, id);
  const { billTo } = parties;
  const delivery = await prepareDelivery(deps.db, existing.paymentMode, billTo);
  await deps.db.transaction(async (tx) => {
    const row = await lockWritable(tx, actor, id);
    const lockedRefusal = resendRefusal(row.status);
    if (lockedRefusal) throw conflict(lockedRefusal);
    await deliverContract(tx, deps, actor, row, parties, delivery, 'resend');
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'contract.resent',
      entity: 'contract',
      entityId: id,
      before: null,
      after: { to: delivery.kind === 'pay_link' ? payLinkRecipient(billTo).email : billTo.email },
    });
  });
  deps.mailer.kick(deps.db);
  return getContract(deps.db, actor, id, deps.baseUrl);
}

/** Creates the pay link once (pay_link contracts only, and only for a non-zero amount) and answers its URL. */
export async function generatePaymentLink(deps: ContractDeps, actor: Actor, id: string): Promise<PaymentLinkResponse> {
  const token = await deps.db.transaction(async (tx) => {
    const row = await lockWritable(tx, actor, id);
    if (row.status === 'canceled' || row.status === 'completed') {
      throw conflict(`This contract is ${row.status}, so no payment link can be created for it.`);
    }
    return (await ensurePayLink(tx, actor, row)).payLinkToken!;
  });
  return { paymentUrl: payLink(deps.baseUrl, token) };
}

// ---------------------------------------------------------------------------------------------------------
// Internals
// ---------------------------------------------------------------------------------------------------------

/**
 * Who a contract is sent to (product.md section 20): the bill-to customer with its billing contact (the customer
 * itself, or its agency of record), and the advertiser's name, which e-mails to an agency name too.
 */
type ContractParties = { billTo: SendableCustomer; advertiserName: string };

/** What a contract stores of its bill-to: the customer, and the agency's terms when billed to its agency. */
type BillToTerms = {
  billToCustomerId: string;
  agencyCommissionBp: number | null;
  agencyBillingMode: 'net' | 'gross' | null;
};

/**
 * The bill-to of a body (product.md section 20): the advertiser's agency of record on the start date when the
 * body leaves it out, else the customer; one the body names must be the customer itself or that agency (400 on
 * billToCustomerId otherwise). Billed to the agency, the contract keeps its commission and billing mode.
 */
async function resolveBillTo(
  db: Db,
  body: ContractBody,
  customer: SendableCustomer,
): Promise<{ terms: BillToTerms; parties: ContractParties }> {
  const agency = await agencyOfRecordOn(db, body.customerId, body.startDate);
  const billToCustomerId = body.billToCustomerId ?? agency?.agencyId ?? body.customerId;
  if (billToCustomerId === body.customerId) {
    return {
      terms: { billToCustomerId, agencyCommissionBp: null, agencyBillingMode: null },
      parties: { billTo: customer, advertiserName: customer.name },
    };
  }
  const billTo = agency?.agencyId === billToCustomerId ? await selectCustomer(db, billToCustomerId) : undefined;
  if (!agency || !billTo) {
    throw badRequest(AGENCY_MESSAGES.billToInvalid, { billToCustomerId: [AGENCY_MESSAGES.billToInvalid] });
  }
  return {
    terms: { billToCustomerId, agencyCommissionBp: agency.commissionBp, agencyBillingMode: agency.billingMode },
    parties: { billTo, advertiserName: customer.name },
  };
}

/**
 * An edit's bill-to: decided again (resolveBillTo) when the customer, the start date or the bill-to changes;
 * otherwise the contract keeps the bill-to and the terms it was made with.
 */
async function billToOfEdit(
  db: Db,
  existing: ContractRow,
  body: ContractBody,
  customer: SendableCustomer,
): Promise<{ terms: BillToTerms; parties: ContractParties }> {
  const unchanged =
    body.customerId === existing.customerId &&
    body.startDate === existing.startDate &&
    (body.billToCustomerId === null || body.billToCustomerId === existing.billToCustomerId);
  if (!unchanged) return resolveBillTo(db, body, customer);
  return {
    terms: {
      billToCustomerId: existing.billToCustomerId,
      agencyCommissionBp: existing.agencyCommissionBp,
      agencyBillingMode: existing.agencyBillingMode,
    },
    parties: await sendableParties(db, existing.id),
  };
}

/** The stored contract's bill-to and advertiser (409 when it has none to send to). */
async function sendableParties(db: Db, contractId: string): Promise<ContractParties> {
  const parties = await selectContractParties(db, contractId);
  if (!parties) throw conflict('The contract has no customer to send it to.');
  return parties;
}

type References = {
  customer: SendableCustomer;
  productsById: Map<string, ProductRow>;
  pkg: PackageRow | null;
};

/**
 * The customer, products and package a body names, read from the database: a missing customer or
 * package, or an unknown or archived product, is a 400 naming each field.
 */
async function loadReferences(db: Db, body: ContractBody, allowArchived: Set<string>): Promise<References> {
  const productIds = [...new Set(body.lineItems.map((line) => line.productId))];
  const [customer, productRows, pkg] = await Promise.all([
    selectCustomer(db, body.customerId),
    selectProducts(db, productIds),
    body.packageId ? selectPackage(db, body.packageId) : Promise.resolve(null),
  ]);
  const productsById = new Map(productRows.map((p) => [p.id, p]));
  const fieldErrors: FieldErrors = {};
  if (!customer) fieldErrors.customerId = ['Customer not found'];
  if (body.packageId && !pkg) fieldErrors.packageId = ['Package not found'];
  body.lineItems.forEach((line, i) => {
    const product = productsById.get(line.productId);
    if (!product) fieldErrors[`lineItems.${i}.productId`] = ['Product not found'];
    else if (!product.isActive && !allowArchived.has(product.id)) {
      fieldErrors[`lineItems.${i}.productId`] = [`${product.name} is archived and cannot be added to a contract`];
    }
  });
  assertNoFieldErrors(fieldErrors);
  return { customer: customer!, productsById, pkg: pkg ?? null };
}

/**
 * What each line keeps from the moment it is sold (product.md section 11): the product's price metric, the
 * in-season price (the product's seasonal price unless the body gives one, or null for none) and the flight
 * (from the contract's start unless given; a flat line's end from its product's default duration, within
 * the term; an inventory line's end from its default duration, else the day before the auto-stop date:
 * product.md section 13). An inventory line left without an end is refused by assertInventoryFlights.
 */
export function lineSnapshot(
  line: ContractBody['lineItems'][number],
  product: ProductRow,
  contract: { startDate: string; termEnd: string | null },
  soldAs?: string,
) {
  const metric = soldAs ?? product.priceMetric;
  const priceMetric = (PRICE_METRICS as readonly string[]).includes(metric) ? (metric as PriceMetric) : 'monthly';
  const { flightStart, flightEnd } = soldFlight(
    line,
    { priceMetric, defaultDuration: product.defaultDuration, inventoryRequired: product.inventoryRequired },
    contract,
  );
  return {
    priceMetric,
    seasonalPriceCents: line.seasonalPrice === undefined ? product.seasonalPriceCents : line.seasonalPrice,
    flightStart,
    flightEnd,
  };
}

/** 400 naming each inventory line with no flight end (product.md section 13: units are sold by the day). */
export function assertInventoryFlights(
  lines: readonly { flightEnd: string | null; product: ProductRow }[],
  field: (index: number) => string,
): void {
  const fieldErrors: FieldErrors = {};
  lines.forEach(({ flightEnd, product }, i) => {
    if (product.inventoryRequired && flightEnd === null)
      fieldErrors[field(i)] = [flightEndRequiredMessage(product.name)];
  });
  assertNoFieldErrors(fieldErrors);
}

/**
 * 400 naming each line whose discount is above its amount at the in-season price it keeps (product.md
 * section 4): the request's schema checked the prices it was given, this checks the product's seasonal price a
 * line takes when the request left it out. The rule is lineIssues, the form's and the schema's own.
 */
export function assertLineAmounts(
  lines: readonly {
    quantity: number;
    unitPriceCents: number;
    discountCents: number;
    seasonalPriceCents: number | null;
  }[],
  field: (index: number) => string,
): void {
  const fieldErrors: FieldErrors = {};
  lines.forEach((line, i) => {
    const issue = lineIssues(line);
    if (issue) fieldErrors[field(i)] = [issue];
  });
  assertNoFieldErrors(fieldErrors);
}

/** Every stored figure, recomputed from the package's data, the submitted prices and the lines' snapshots. */
function computeFigures(body: ContractBody, refs: References, soldMetrics = new Map<string, string>()) {
  const termEnd = computeAutoStopDate(body.startDate, body.termMonths);
  const snapshots = body.lineItems.map((line) =>
    lineSnapshot(
      line,
      refs.productsById.get(line.productId) as ProductRow,
      { startDate: body.startDate, termEnd },
      soldMetrics.get(line.productId),
    ),
  );
  assertInventoryFlights(
    snapshots.map((snapshot, i) => ({
      flightEnd: snapshot.flightEnd,
      product: refs.productsById.get(body.lineItems[i].productId) as ProductRow,
    })),
    (i) => `lineItems.${i}.flightEnd`,
  );
  assertLineAmounts(
    body.lineItems.map((line, i) => ({
      quantity: line.quantity,
      unitPriceCents: line.unitPrice,
      discountCents: line.discount,
      seasonalPriceCents: snapshots[i].seasonalPriceCents,
    })),
    (i) => `lineItems.${i}.discount`,
  );
  const lines = body.lineItems.map((line, i) => ({
    description: (refs.productsById.get(line.productId) as ProductRow).name,
    productId: line.productId,
    quantity: line.quantity,
    unitPriceCents: line.unitPrice,
    discountCents: line.discount,
    ...snapshots[i],
  }));
  // Created and edited as drafts are: every line counts, from the contract's start.
  const contract = storedFigures(
    {
      startDate: body.startDate,
      autoStopDate: termEnd,
      status: 'draft',
      packageId: body.packageId,
      packagePriceCents: refs.pkg?.priceCents ?? 0,
      setupFeeCents: body.setupFee,
    },
    lines,
    { today: businessToday(), count: 'every line' },
  );
  return {
    contract,
    lines: lines.map((line, position) => ({
      productId: line.productId,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      discountCents: line.discountCents,
      lineTotalCents: lineTotalCents(line),
      ...snapshots[position],
      position,
    })),
  };
}

/**
 * The status a create or edit body asks for: makeActive or status 'active' -> active (nothing is sent);
 * sendToCustomer (on a draft) or status 'sent' -> sent; status 'draft' -> draft; otherwise no change.
 */
function requestedStatus(body: ContractBody, current: string): ContractStatus | null {
  if (body.makeActive || body.status === 'active') return 'active';
  if (body.status === 'sent' || (body.sendToCustomer && current === 'draft')) return 'sent';
  if (body.status === 'draft') return 'draft';
  return null;
}

function statusChangeRefusal(from: string, to: ContractStatus): string {
  if (to === 'active') return transitionRefusal('activate', from);
  if (to === 'sent') return transitionRefusal('send', from);
  return `Cannot change this contract back to ${to}: it is ${from}.`;
}

/**
 * The sales rep a body names: the creator (or the current rep) by default; only holders of
 * contract:assign-rep may name another user, who must be an active sales user.
 */
async function resolveSalesRep(
  db: Db,
  actor: Actor,
  requested: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  const fallback = current ?? actor.id;
  if (!requested || requested === fallback) return fallback;
  if (!can(actor, 'contract:assign-rep')) {
    throw forbidden('Only a sales manager or an admin can assign a contract to another sales rep');
  }
  const user = await selectUser(db, requested);
  if (!user?.isActive || !SALES_REP_ROLES.includes(user.role)) {
    const message = 'The sales rep must be an active sales user';
    throw badRequest(message, { salesRepId: [message] });
  }
  return user.id;
}

async function findWritable(db: Db, actor: Actor, id: string): Promise<ContractRow> {
  const row = await selectContract(db, id);
  return assertWritable(actor, row);
}

export async function lockWritable(tx: Db, actor: Actor, id: string): Promise<ContractRow> {
  return assertWritable(actor, await lockContract(tx, id));
}

function assertWritable(actor: Actor, row: ContractRow | undefined): ContractRow {
  if (!row || !canReadContract(actor, row)) throw notFound(CONTRACT_NOT_FOUND);
  if (!canWriteContract(actor, row)) throw forbidden(CONTRACT_ACCESS_MESSAGES.cannotChange);
  return row;
}

/**
 * Performs a status action through the one writer of contract status (contract-status.service.ts: the
 * conditional UPDATE, its audit event, the pause record and the activation notice), then, for a send, the
 * contract e-mail in the same transaction. The updated row, or null when the contract is not in a status
 * the action applies to (the caller answers 409). Work that needs the change committed follows in the
 * caller (billing after activate and resume).
 */
async function applyTransition(
  tx: Db,
  deps: ContractDeps,
  actor: Actor,
  id: string,
  action: ContractAction,
  options: { reason?: string; parties?: ContractParties; delivery?: Delivery | null },
): Promise<ContractRow | null> {
  const changed = await changeContractStatus(tx, id, {
    action,
    actorId: actor.id,
    baseUrl: deps.baseUrl,
    cancelReason: options.reason,
  });
  if (!changed) return null;
  let updated = changed.row;
  if (action === 'send') {
    if (!options.parties || !options.delivery) throw new Error('send needs the bill-to and a prepared delivery');
    updated = await deliverContract(tx, deps, actor, updated, options.parties, options.delivery);
  }
  return updated;
}

/** The pay link, created once: an unguessable token and the built-in provider's payment-link id. */
async function ensurePayLink(tx: Db, actor: Actor, row: ContractRow): Promise<ContractRow> {
  if (row.paymentMode !== 'pay_link') {
    throw conflict('This contract is paid through the Client Portal. Payment links are only for Pay-Link contracts.');
  }
  if (row.payLinkToken) return row;
  if (row.totalCents === 0 && row.setupFeeCents === 0) throw conflict(CONTRACT_MESSAGES.zeroAmountPayLink);
  const updated = await updateContractRow(tx, row.id, {
    payLinkToken: randomBytes(24).toString('base64url'), // 192 bits
    stripePaymentLinkId: row.stripePaymentLinkId ?? `plink_${randomBytes(12).toString('hex')}`,
  });
  await recordAudit(tx, {
    actorId: actor.id,
    action: 'contract.payment_link_created',
    entity: 'contract',
    entityId: row.id,
    before: { stripePaymentLinkId: row.stripePaymentLinkId },
    after: { stripePaymentLinkId: updated.stripePaymentLinkId },
  });
  return updated;
}

/**
 * Whom a pay-link e-mail, the customer's request for payment, reaches: its billing contact when it has one
 * (product.md section 19), else the customer. A portal invitation goes to the customer's own address.
 */
function payLinkRecipient(customer: SendableCustomer) {
  return { name: customer.name, email: customer.billingEmail, contactPerson: customer.billingContactName };
}

/**
 * How a contract reaches its customer: a pay link, or a portal invitation (the account, when missing, and
 * its set-password link are created inside the transaction; no password is ever chosen or e-mailed for it).
 */
type Delivery = { kind: 'pay_link' } | { kind: 'portal' };

async function prepareDelivery(db: Db, paymentMode: string, customer: SendableCustomer): Promise<Delivery> {
  if (paymentMode === 'pay_link') return { kind: 'pay_link' };
  await assertClientAccountPossible(db, customer);
  return { kind: 'portal' };
}

/**
 * Puts the contract e-mail in the outbox (inside the caller's transaction), creating what it needs first: a
 * send freezes the contract as its next insertion order version and the e-mail links to it ("Review and
 * sign"); a resend links to the version still with the customer, if any.
 */
async function deliverContract(
  tx: Db,
  deps: ContractDeps,
  actor: Actor,
  row: ContractRow,
  parties: ContractParties,
  delivery: Delivery,
  kind: 'send' | 'new-version' | 'resend' = 'send',
): Promise<ContractRow> {
  const customer = parties.billTo;
  const io: Pick<IssuedInsertionOrder, 'version' | 'url'> | null =
    kind === 'resend'
      ? await openInsertionOrderLink(tx, deps.baseUrl, row.id)
      : await issueInsertionOrder(tx, deps, { contractId: row.id, actorId: actor.id });
  const facts: ContractEmailFacts = {
    id: row.id,
    title: row.title,
    description: row.description,
    startDate: row.startDate,
    termMonths: row.termMonths,
    autoStopDate: row.autoStopDate,
    figures: (await previewContracts(tx, [row])).get(row.id)!,
    billedTo:
      customer.id === row.customerId ? null : { advertiserName: parties.advertiserName, billToName: customer.name },
  };
  const company = await readCompanyProfile(tx);
  if (delivery.kind === 'pay_link') {
    const withLink = await ensurePayLink(tx, actor, row);
    await deps.mailer.enqueue(
      tx,
      payLinkEmail({
        contract: facts,
        customer: payLinkRecipient(customer),
        company,
        paymentUrl: payLink(deps.baseUrl, withLink.payLinkToken!),
        io,
      }),
    );
    return withLink;
  }
  const access = await preparePortalAccess(tx, {
    customer,
    actorId: actor.id,
    baseUrl: deps.baseUrl,
    reason: `portal invitation for contract ${row.id}`,
  });
  await deps.mailer.enqueue(
    tx,
    portalInvitationEmail({
      contract: facts,
      customer,
      company,
      portalUrl: portalUrl(deps.baseUrl),
      loginEmail: access.user.email,
      setPasswordUrl: access.setPasswordUrl,
      io,
    }),
  );
  return row;
}
