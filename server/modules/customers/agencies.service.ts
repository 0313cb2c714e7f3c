import { dayFromNumber, dayNumber } from '@shared/calendar-date';
import {
  AGENCY_MESSAGES,
  type AgencyOfRecord,
  type AgencyOfRecordValues,
  DEFAULT_AGENCY_COMMISSION_BP,
} from '@shared/contracts/agencies';
import { can } from '@shared/permissions';
import { percentToBasisPoints } from '@shared/rates';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { sqlState } from '../../lib/db-errors';
import { AppError, badRequest, conflict, invalidFields, notFound } from '../../lib/errors';
import type { SessionUser } from '../sessions/sessions';
import {
  type AgencyPeriodRow,
  deletePeriod,
  insertPeriod,
  isOwnCustomer,
  lockOverlappingPeriodOfAgency,
  lockPeriodToRemove,
  selectPeriod,
  selectPeriodsOfAdvertiser,
  selectPeriodsOfAgency,
  updatePeriod,
} from './agency-of-record.repo';
import { selectCustomerRow, shareLockCustomer } from './customers.repo';
import { toAgencyOfRecord } from './customers.service';

/**
 * Agencies of record (product.md section 20): who may set an advertiser's agency, the periods themselves (one at
 * a time per advertiser: the exclusion constraint customer_agencies_no_overlap decides a race), and an agency's
 * advertisers. A customer the caller may not act on is answered 404, as one that does not exist.
 */

type Actor = SessionUser;

/** `agency:manage:any` every advertiser; `agency:manage:own` a rep's own customers (created, or sold to). */
async function manages(db: Db, actor: Actor, customerId: string): Promise<boolean> {
  if (can(actor, 'agency:manage:any')) return true;
  return can(actor, 'agency:manage:own') && isOwnCustomer(db, customerId, actor.id);
}

/** An advertiser's periods are read by those who set them (a rep: their own customers') and by finance. */
async function readsAdvertiser(db: Db, actor: Actor, customerId: string): Promise<boolean> {
  return can(actor, 'agency:statement:any') || manages(db, actor, customerId);
}

/** An agency's advertisers: staff with `agency:statement:any`, a rep their own agencies, its own client users. */
async function readsAgency(db: Db, actor: Actor, agencyId: string): Promise<boolean> {
  if (can(actor, 'agency:statement:any')) return true;
  if (can(actor, 'agency:statement:self') && actor.customerId === agencyId) return true;
  return can(actor, 'agency:statement:own') && isOwnCustomer(db, agencyId, actor.id);
}

/** What the audit trail keeps of a period. */
const snapshot = (period: AgencyPeriodRow | undefined) =>
  period
    ? {
        agencyId: period.agencyId,
        agencyName: period.agencyName,
        commissionBp: period.commissionBp,
        billingMode: period.billingMode,
        fromDate: period.fromDate,
        toDate: period.toDate,
      }
    : null;

/** Two periods of one advertiser that overlap: the exclusion constraint's 23P01, a 409 with the form's words. */
async function refusingOverlap<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (sqlState(error) === '23P01') throw conflict(AGENCY_MESSAGES.overlap);
    throw error;
  }
}

const periodsOf = async (db: Db, advertiserId: string) =>
  (await selectPeriodsOfAdvertiser(db, advertiserId)).map(toAgencyOfRecord);

/** GET /api/customers/{id}/agency: the advertiser's periods of representation, newest first. */
export async function listAgenciesOfRecord(db: Db, actor: Actor, advertiserId: string): Promise<AgencyOfRecord[]> {
  const customer = await selectCustomerRow(db, advertiserId);
  if (!customer || !(await readsAdvertiser(db, actor, advertiserId))) throw notFound('Customer');
  return periodsOf(db, advertiserId);
}

/**
 * PUT /api/customers/{id}/agency: the advertiser's agency for these dates. The agency's period overlapping them is
 * changed, else a new one is made; the commission is the agency's own unless given. Both customers are
 * share-locked, so neither's kind changes meanwhile. Answers the advertiser's periods, newest first.
 */
export async function setAgencyOfRecord(
  db: Db,
  actor: Actor,
  advertiserId: string,
  input: AgencyOfRecordValues,
): Promise<AgencyOfRecord[]> {
  return refusingOverlap(
    db.transaction(async (tx) => {
      const customer = await shareLockCustomer(tx, advertiserId);
      if (!customer || !(await manages(tx, actor, advertiserId))) throw notFound('Customer');
      if (input.agencyId === advertiserId) throw invalidFields({ agencyId: [AGENCY_MESSAGES.notSelf] });
      if (customer.kind !== 'advertiser') throw badRequest(AGENCY_MESSAGES.advertiserOnly);
      const agency = await shareLockCustomer(tx, input.agencyId);
      if (agency?.kind !== 'agency') throw invalidFields({ agencyId: [AGENCY_MESSAGES.notAnAgency] });
      const values = {
        commissionBp:
          input.commissionPercent === null || input.commissionPercent === undefined
            ? (agency.agencyCommissionBp ?? DEFAULT_AGENCY_COMMISSION_BP)
            : percentToBasisPoints(input.commissionPercent),
        billingMode: input.billingMode,
        fromDate: input.from,
        toDate: input.to ?? null,
      };
      const existing = await lockOverlappingPeriodOfAgency(tx, advertiserId, agency.id, input.from, values.toDate);
      const before = existing ? await selectPeriod(tx, existing.id) : undefined;
      let id: string;
      if (existing) {
        await updatePeriod(tx, existing.id, values);
        id = existing.id;
      } else {
        id = await insertPeriod(tx, { ...values, advertiserId, agencyId: agency.id, createdBy: actor.id });
      }
      await recordAudit(tx, {
        actorId: actor.id,
        action: existing ? 'customer.agency_updated' : 'customer.agency_set',
        entity: 'customer',
        entityId: advertiserId,
        before: snapshot(before),
        after: snapshot(await selectPeriod(tx, id)),
      });
      return periodsOf(tx, advertiserId);
    }),
  );
}

/**
 * DELETE /api/customers/{id}/agency: ends the representation covering today (of `agencyId` when given: that
 * agency's, or its next one to come). A period begun before today ends yesterday (its history stays: past
 * contracts and statements name it); one that begins today or later is deleted. 404 when there is none.
 */
export async function removeAgencyOfRecord(
  db: Db,
  actor: Actor,
  advertiserId: string,
  agencyId?: string,
): Promise<AgencyOfRecord[]> {
  return db.transaction(async (tx) => {
    const customer = await shareLockCustomer(tx, advertiserId);
    if (!customer || !(await manages(tx, actor, advertiserId))) throw notFound('Customer');
    const today = businessToday();
    const found = await lockPeriodToRemove(tx, advertiserId, today, agencyId);
    if (!found) throw new AppError('NOT_FOUND', AGENCY_MESSAGES.noneToRemove);
    const before = await selectPeriod(tx, found.id);
    if (found.fromDate < today) await updatePeriod(tx, found.id, { toDate: dayFromNumber(dayNumber(today) - 1) });
    else await deletePeriod(tx, found.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'customer.agency_removed',
      entity: 'customer',
      entityId: advertiserId,
      before: snapshot(before),
      after: snapshot(await selectPeriod(tx, found.id)),
    });
    return periodsOf(tx, advertiserId);
  });
}

/** GET /api/agencies/{id}/advertisers: every advertiser the agency represents or represented, newest first. */
export async function listAgencyAdvertisers(db: Db, actor: Actor, agencyId: string): Promise<AgencyOfRecord[]> {
  const agency = await selectCustomerRow(db, agencyId);
  if (agency?.kind !== 'agency' || !(await readsAgency(db, actor, agencyId))) throw notFound('Agency');
  return (await selectPeriodsOfAgency(db, agencyId)).map(toAgencyOfRecord);
}
