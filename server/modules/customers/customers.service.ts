import {
  AGENCY_MESSAGES,
  type AgencyOfRecord,
  type CustomerKind,
  DEFAULT_AGENCY_COMMISSION_BP,
} from '@shared/contracts/agencies';
import type { Customer, CustomerListQuery, CustomerValues } from '@shared/contracts/customers';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import { basisPointsToPercent, percentToBasisPoints } from '@shared/rates';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import type { BoundedTotal } from '../../lib/bounded-count';
import { businessToday } from '../../lib/business-day';
import { conflict, invalidFields, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import { type AgencyPeriodRow, countContractsNaming, countPeriodsOfCustomer } from './agency-of-record.repo';
import {
  type ContractCounts,
  type CustomerRow,
  type CustomerRowChanges,
  type CustomerScope,
  countContractsOfCustomer,
  deleteCustomerRow,
  insertCustomer,
  lockCustomer,
  lockCustomerWithCounts,
  selectCustomerPage,
  selectCustomerWithCounts,
  updateCustomerRow,
} from './customers.repo';

/** The agency of record of an advertiser on a day (the contracts module's default bill-to). */
export { type AgencyTerms, selectAgencyOfRecordOn as agencyOfRecordOn } from './agency-of-record.repo';

type Actor = SessionUser;
type CustomerChanges = Partial<CustomerValues>;

/** Staff see every customer; a client only the customer its account is linked to (or none). */
function visibleTo(actor: Actor): CustomerScope {
  if (can(actor, 'customer:read:any')) return { all: true };
  if (can(actor, 'customer:read:own') && actor.customerId) return { all: false, customerId: actor.customerId };
  return { all: false, customerId: null };
}

/** A period of representation as the API answers it: the commission in percent. */
export function toAgencyOfRecord(period: AgencyPeriodRow): AgencyOfRecord {
  return {
    id: period.id,
    advertiserId: period.advertiserId,
    advertiserName: period.advertiserName,
    agencyId: period.agencyId,
    agencyName: period.agencyName,
    commissionPercent: basisPointsToPercent(period.commissionBp),
    billingMode: period.billingMode,
    from: period.fromDate,
    to: period.toDate,
  };
}

/** `agencyOfRecord`: the period covering today, as the customers select reads it (none for a new customer). */
export function toCustomer(
  row: CustomerRow,
  counts: ContractCounts & { agencyOfRecord?: AgencyPeriodRow | null },
  actor?: Actor,
): Customer {
  const staff = !actor || can(actor, 'customer:read:any');
  const agency = row.kind === 'agency';
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    country: row.country,
    contactPerson: row.contactPerson,
    website: row.website,
    industry: row.industry,
    notes: staff ? row.notes : null,
    contractCount: counts.contractCount,
    activeContractCount: counts.activeContractCount,
    creditBalance: centsToAmount(row.creditBalanceCents),
    kind: row.kind,
    agencyCommissionPercent:
      agency && row.agencyCommissionBp !== null ? basisPointsToPercent(row.agencyCommissionBp) : null,
    agencyOfRecord: !agency && counts.agencyOfRecord ? toAgencyOfRecord(counts.agencyOfRecord) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCustomers(
  db: Db,
  actor: Actor,
  query: CustomerListQuery,
): Promise<{ rows: Customer[] } & BoundedTotal> {
  const q = query.q?.replaceAll('\u0000', '').trim();
  const page = await selectCustomerPage(db, {
    scope: visibleTo(actor),
    day: businessToday(),
    q,
    kind: query.kind,
    limit: query.limit,
    offset: query.offset,
  });
  return { ...page, rows: page.rows.map((r) => toCustomer(r.row, r, actor)) };
}

export async function getCustomer(db: Db, actor: Actor, id: string): Promise<Customer> {
  const found = await selectCustomerWithCounts(db, id, visibleTo(actor), businessToday());
  if (!found) throw notFound('Customer');
  return toCustomer(found.row, found, actor);
}

/** The stored columns of the form's fields: `kind` and the agency commission in basis points. */
function rowValues(input: CustomerChanges): CustomerRowChanges {
  const { kind: _kind, agencyCommissionPercent: _percent, ...fields } = input;
  return fields;
}

/** An agency's commission as stored: the percent given, else 15% (DEFAULT_AGENCY_COMMISSION_BP). */
const commissionBpOf = (percent: number | null | undefined) =>
  percent === null || percent === undefined ? DEFAULT_AGENCY_COMMISSION_BP : percentToBasisPoints(percent);

/** An agency commission given for an advertiser: refused with a field message. */
function refuseAdvertiserCommission(kind: CustomerKind, percent: number | null | undefined): void {
  if (kind === 'advertiser' && percent !== null && percent !== undefined) {
    throw invalidFields({ agencyCommissionPercent: [AGENCY_MESSAGES.commissionAgencyOnly] });
  }
}

export async function createCustomer(db: Db, actor: Actor, input: CustomerValues): Promise<Customer> {
  const kind = input.kind ?? 'advertiser';
  refuseAdvertiserCommission(kind, input.agencyCommissionPercent);
  return db.transaction(async (tx) => {
    const row = await insertCustomer(tx, {
      ...rowValues(input),
      name: input.name,
      email: input.email,
      kind,
      agencyCommissionBp: kind === 'agency' ? commissionBpOf(input.agencyCommissionPercent) : null,
      createdBy: actor.id,
    });
    const customer = toCustomer(row, { contractCount: 0, activeContractCount: 0 });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.created',
      entity: 'customer',
      entityId: row.id,
      after: customer,
    });
    return customer;
  });
}

/**
 * The kind and agency commission a change stores. A change of kind is refused with 409 (and nothing changed) while
 * a contract names the customer, as the customer or as the bill-to, or while it is in an agency-of-record period;
 * the caller holds the customer's row lock (FOR UPDATE), so a contract made meanwhile waits for the outcome (its
 * foreign keys share-lock the row) and is counted once it is in.
 */
async function kindChanges(tx: Db, row: CustomerRow, changes: CustomerChanges): Promise<CustomerRowChanges> {
  const kind = changes.kind ?? row.kind;
  refuseAdvertiserCommission(kind, changes.agencyCommissionPercent);
  if (kind !== row.kind) {
    if ((await countContractsNaming(tx, row.id)) > 0) throw conflict(AGENCY_MESSAGES.kindFixed);
    const periods = await countPeriodsOfCustomer(tx, row.id);
    if (row.kind === 'agency' && periods.asAgency > 0) throw conflict(AGENCY_MESSAGES.kindRepresents);
    if (row.kind === 'advertiser' && periods.asAdvertiser > 0) throw conflict(AGENCY_MESSAGES.kindRepresented);
    return {
      kind,
      agencyCommissionBp: kind === 'agency' ? commissionBpOf(changes.agencyCommissionPercent) : null,
    };
  }
  if (kind === 'agency' && changes.agencyCommissionPercent !== undefined) {
    return { agencyCommissionBp: commissionBpOf(changes.agencyCommissionPercent) };
  }
  return {};
}

export async function updateCustomer(db: Db, actor: Actor, id: string, changes: CustomerChanges): Promise<Customer> {
  return db.transaction(async (tx) => {
    const found = await lockCustomerWithCounts(tx, id, businessToday());
    if (!found) throw notFound('Customer');
    const before = toCustomer(found.row, found);
    if (Object.keys(changes).length === 0) return before;
    const values = { ...rowValues(changes), ...(await kindChanges(tx, found.row, changes)) };
    if (Object.keys(values).length === 0) return before;
    const row = await updateCustomerRow(tx, id, values);
    const after = toCustomer(row, found);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.updated',
      entity: 'customer',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

/** Refused with 409 while contracts exist. The row lock makes a contract created meanwhile wait for the outcome. */
export async function deleteCustomer(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockCustomer(tx, id);
    if (!row) throw notFound('Customer');
    const counts = await countContractsOfCustomer(tx, id);
    const n = counts.contractCount;
    if (n > 0) throw conflict(`This customer has ${n} contract${n === 1 ? '' : 's'} and cannot be deleted`);
    await deleteCustomerRow(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.deleted',
      entity: 'customer',
      entityId: id,
      before: toCustomer(row, counts),
    });
  });
}
