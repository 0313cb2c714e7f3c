import { bookedValueCents } from '@shared/booked-value';
import { canReadContract } from '@shared/contracts/contract-access';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import {
  type AvailabilityDay,
  type AvailabilityQuery,
  daysInRange,
  type InventoryCalendar,
  type InventoryDay,
  type InventoryHolder,
  type InventoryMonth,
  NEXT_FREE_COUNT,
  NEXT_FREE_HORIZON_DAYS,
  type ProductAvailability,
  RENEWAL_HOLD_NOTICE_DAYS,
  RENEWAL_HOLD_RELEASE_DAYS,
  renewalHolderShortName,
  type SellThroughRow,
  sellThroughPercent,
  soldOutMessage,
} from '@shared/contracts/inventory';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import type { Db } from '../../db/client';
import { recordAudits } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { conflict, notFound } from '../../lib/errors';
import { notify } from '../../lib/notify';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import {
  type BookedLineRow,
  contractTakesUnits,
  type DayFigures,
  type InventoryProductRow,
  insertDueRenewalHolds,
  lockInventoryOfContract,
  markExpiredHolds,
  type RenewalHoldRow,
  releaseEndedRenewalHolds,
  selectBookedLines,
  selectBusiestDay,
  selectContractStatus,
  selectDayFigures,
  selectDayHolders,
  selectFirstShortfall,
  selectInventoryProduct,
  selectInventoryProducts,
  selectNextFreeDays,
  selectProductName,
  selectRenewalHoldersOn,
  selectSellThrough,
  upsertHold,
} from './inventory.repo';

/**
 * Inventory of holiday placements (product.md section 13; docs/decisions/027-inventory.md): what a day of
 * an inventory product has left, who holds it, and the rule that nobody sells what is not there.
 */

type Actor = SessionUser;

// ---------------------------------------------------------------------------------------------------------
// Selling: holds and the capacity check, inside the caller's transaction
// ---------------------------------------------------------------------------------------------------------

/** A send starts the contract's hold on its units: the contract settings' holdDays from now. */
export async function startHold(tx: Db, contractId: string): Promise<void> {
  const { holdDays } = await getSettings(tx, 'contracts');
  await upsertHold(tx, contractId, holdDays);
}

/**
 * The capacity check of every sale (a send, an activation, an edit, an amendment, a renewed hold), run
 * after the caller wrote the contract's new status and lines, under the contract's row lock: the contract's
 * inventory products are locked in id order, then every day from today on is counted. A day the contract
 * would take above capacity refuses the whole change with 409 naming the first such day and what is left
 * ("Only 1 of 3 slots left on 2026-12-20 for Holiday Pre-roll": what the rest of the contracts leave; for an
 * amendment's new line, what everything else leaves), and the caller's transaction rolls back.
 * Renewal holds count like the rest, except the ones kept for this contract (it is their renewal); when some
 * take part of that day the message names whose renewal they keep it for: the customer for a caller who may
 * see the holding contract (seesHolder), else its short id ("... (held for the renewal of contract 1a2b3c4d)").
 * A contract that takes nothing (a draft, an expired hold) or has no inventory lines passes.
 */
export async function assertUnitsAvailable(
  tx: Db,
  contractId: string,
  options: { today?: string; lineId?: string; actor?: Actor | null } = {},
): Promise<void> {
  // The contract's own status and hold cannot change meanwhile: the caller holds its row lock.
  if (!(await contractTakesUnits(tx, contractId))) return;
  if (!(await lockInventoryOfContract(tx, contractId))) return;
  const today = options.today ?? businessToday();
  const shortfall = await selectFirstShortfall(tx, contractId, today, options.lineId ?? null);
  if (!shortfall) return;
  const heldFor =
    shortfall.renewal > 0
      ? (await selectRenewalHoldersOn(tx, shortfall.product_id, shortfall.day, today, contractId)).map((holder) =>
          options.actor && holder.customer_name && seesHolder(options.actor, holder.sales_rep_id)
            ? holder.customer_name
            : renewalHolderShortName(shortContractId(holder.contract_id)),
        )
      : [];
  throw conflict(
    soldOutMessage(
      shortfall.capacity - shortfall.others,
      shortfall.capacity,
      shortfall.day,
      shortfall.product_name,
      heldFor,
    ),
  );
}

/**
 * Opening a checkout on a sent contract whose hold ran out takes its units again, for a new hold, when they
 * are still there (409 otherwise), so a payment never activates a contract whose units were sold since.
 */
export async function renewExpiredHold(tx: Db, contractId: string): Promise<void> {
  if ((await selectContractStatus(tx, contractId)) !== 'sent' || (await contractTakesUnits(tx, contractId))) return;
  if (!(await lockInventoryOfContract(tx, contractId))) return;
  await startHold(tx, contractId);
  await assertUnitsAvailable(tx, contractId);
}

/** The day from `fromDay` on with the most units of a product taken, for a capacity cut (products). */
export async function busiestDayFrom(tx: Db, productId: string, fromDay: string) {
  const day = await selectBusiestDay(tx, productId, fromDay);
  return day ? { date: day.day, units: day.units } : null;
}

// ---------------------------------------------------------------------------------------------------------
// Reading: availability, the calendar, a day's holders, sell-through
// ---------------------------------------------------------------------------------------------------------

const notTracked = (name: string) => `${name} does not track inventory`;

function toDays(capacity: number, figures: readonly DayFigures[]): AvailabilityDay[] {
  return figures.map((f) => ({
    date: f.day,
    capacity,
    booked: f.booked,
    held: f.held,
    heldForRenewal: f.held_for_renewal,
    available: Math.max(0, capacity - f.booked - f.held - f.held_for_renewal),
  }));
}

function toAvailability(product: InventoryProductRow, query: AvailabilityQuery, days: AvailabilityDay[]) {
  let lowest: ProductAvailability['lowest'] = null;
  for (const day of days) {
    if (!lowest || day.available < lowest.available) lowest = { date: day.date, available: day.available };
  }
  return {
    productId: product.id,
    productName: product.name,
    capacity: product.capacity,
    from: query.from,
    to: query.to,
    days,
    lowest,
  };
}

/** GET /api/products/{id}/availability: 404 for no product, 409 for one that does not track inventory. */
export async function getAvailability(db: Db, productId: string, query: AvailabilityQuery) {
  const product = await selectInventoryProduct(db, productId);
  if (!product) throw await missingInventoryProduct(db, productId);
  const figures = await selectDayFigures(
    db,
    [productId],
    query.from,
    query.to,
    businessToday(),
    query.contractId ?? null,
  );
  return toAvailability(product, query, toDays(product.capacity, figures));
}

/**
 * GET /api/inventory: every inventory product over the range with its days and months, in three statements
 * whatever the number of products, lines and days: the products, their day figures, their booking lines.
 */
export async function getInventoryCalendar(db: Db, query: AvailabilityQuery): Promise<InventoryCalendar> {
  const products = await selectInventoryProducts(db);
  const ids = products.map((p) => p.id);
  const today = businessToday();
  const [figures, bookedLines] = await Promise.all([
    selectDayFigures(db, ids, query.from, query.to, today),
    selectBookedLines(db, ids, query.from, query.to),
  ]);
  const byProduct = groupBy(figures, (f) => f.product_id);
  const linesByProduct = groupBy(bookedLines, (line) => line.product_id);
  return {
    from: query.from,
    to: query.to,
    today,
    products: products.map((product) => {
      const days = toDays(product.capacity, byProduct.get(product.id) ?? []);
      return {
        ...toAvailability(product, query, days),
        adType: product.ad_type,
        isActive: product.is_active,
        months: toMonths(product.capacity, days, linesByProduct.get(product.id) ?? []),
      };
    }),
  };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * The months of a product's days (each over its days inside the range): sell-through by the reports' rule
 * (booked unit-days / capacity x days) and the booked value, what the booking lines bill for those days by
 * the billing engine (shared/booked-value.ts).
 */
function toMonths(
  capacity: number,
  days: readonly AvailabilityDay[],
  lines: readonly BookedLineRow[],
): InventoryMonth[] {
  const months: InventoryMonth[] = [];
  for (const day of days) {
    let month = months.at(-1);
    if (!month || month.month !== day.date.slice(0, 7)) {
      month = {
        month: day.date.slice(0, 7),
        from: day.date,
        to: day.date,
        days: 0,
        capacityUnits: 0,
        bookedUnits: 0,
        heldUnits: 0,
        sellThrough: 0,
        bookedValue: 0,
      };
      months.push(month);
    }
    month.to = day.date;
    month.days += 1;
    month.capacityUnits += capacity;
    month.bookedUnits += day.booked;
    month.heldUnits += day.held;
  }
  for (const month of months) {
    month.sellThrough = sellThroughPercent(month.bookedUnits, month.capacityUnits);
    let cents = 0;
    for (const line of lines) {
      // A line whose flight misses the month books nothing in it (ISO dates compare as text).
      const missesMonth =
        line.flight_start > month.to || (line.flight_last_day !== null && line.flight_last_day < month.from);
      if (missesMonth) continue;
      cents += bookedValueCents(
        {
          priceMetric: line.price_metric,
          quantity: line.quantity,
          unitPriceCents: Number(line.unit_price_cents),
          discountCents: Number(line.discount_cents),
          seasonalPriceCents: line.seasonal_price_cents === null ? null : Number(line.seasonal_price_cents),
          flightStart: line.flight_start,
          // A line with no end takes its units until the range's end here (inventory lines always have one).
          flightEnd: line.flight_last_day ?? month.to,
          contractStartDate: line.contract_start_date,
        },
        month.from,
        month.to,
      );
    }
    month.bookedValue = centsToAmount(cents);
  }
  return months;
}

/**
 * GET /api/inventory/{productId}/{date}: the day's figures, the contracts holding or booking it (and those whose
 * renewal it is held for), and the nearest
 * days after it with `quantity` units free (nextFree: what a sold-out day offers instead). A caller
 * who may see every holder (inventory:read:any) gets each contract; a sales rep (inventory:read:own) gets
 * their own, and others' as units booked or held with their end date only: no id, title, customer, rep,
 * status or hold end, and listed after their own in an order that follows none of those (product.md section 13).
 */
export async function getInventoryDay(
  db: Db,
  actor: Actor,
  productId: string,
  date: string,
  quantity = 1,
): Promise<InventoryDay> {
  const product = await selectInventoryProduct(db, productId);
  if (!product) throw await missingInventoryProduct(db, productId);
  const today = businessToday();
  const [figures, rows, nextFree] = await Promise.all([
    selectDayFigures(db, [productId], date, date, today),
    selectDayHolders(db, productId, date, today),
    selectNextFreeDays(db, productId, date, {
      quantity,
      count: NEXT_FREE_COUNT,
      horizon: NEXT_FREE_HORIZON_DAYS,
      today,
    }),
  ]);
  const [day] = toDays(product.capacity, figures);
  const holders = rows.map((h): InventoryHolder => {
    const seen = { kind: h.kind, quantity: h.quantity, endDate: h.end_day } as const;
    if (!seesHolder(actor, h.sales_rep_id)) return { ...seen, contract: null };
    return {
      ...seen,
      contract: {
        id: h.contract_id,
        shortId: shortContractId(h.contract_id),
        title: h.title,
        customerName: h.customer_name,
        status: h.status,
        holdUntil: h.hold_until === null ? null : new Date(h.hold_until).toISOString(),
        salesRepName: h.sales_rep_name,
        canOpen: canReadContract(actor, { salesRepId: h.sales_rep_id }),
      },
    };
  });
  return {
    ...day,
    productId: product.id,
    productName: product.name,
    holders: [
      ...holders.filter((h) => h.contract !== null),
      ...holders.filter((h) => h.contract === null).sort(byWhatIsShown),
    ],
    nextFree: { quantity, dates: nextFree },
  };
}

/** Whether the caller sees who holds a day: every holder, or their own contracts as sales rep. */
function seesHolder(actor: Actor, salesRepId: string | null): boolean {
  if (can(actor, 'inventory:read:any')) return true;
  return can(actor, 'inventory:read:own') && salesRepId === actor.id;
}

const KIND_ORDER: Record<InventoryHolder['kind'], number> = { booked: 0, held: 1, held_for_renewal: 2 };

/** Booked, held, held for renewal, then by end date (no end last), then by units: nothing else orders them. */
function byWhatIsShown(a: InventoryHolder, b: InventoryHolder): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  if (a.endDate !== b.endDate) {
    if (a.endDate === null) return 1;
    if (b.endDate === null) return -1;
    return a.endDate < b.endDate ? -1 : 1;
  }
  return a.quantity - b.quantity;
}

/** Reports' sell-through: every inventory product over the range (booked unit-days / capacity x days). */
export async function sellThrough(db: Db, from: string, to: string): Promise<SellThroughRow[]> {
  const [products, figures] = await Promise.all([selectInventoryProducts(db), selectSellThrough(db, from, to)]);
  const byProduct = new Map(figures.map((f) => [f.product_id, f]));
  const days = daysInRange(from, to);
  return products.map((product) => {
    const bookedUnits = byProduct.get(product.id)?.booked_units ?? 0;
    const capacityUnits = product.capacity * days;
    return {
      productId: product.id,
      productName: product.name,
      capacity: product.capacity,
      days,
      capacityUnits,
      bookedUnits,
      heldUnits: byProduct.get(product.id)?.held_units ?? 0,
      sellThrough: sellThroughPercent(bookedUnits, capacityUnits),
    };
  });
}

/** 404 for no such product; 409 for a product that does not track inventory. */
async function missingInventoryProduct(db: Db, productId: string) {
  const name = await selectProductName(db, productId);
  return name === undefined ? notFound('Product') : conflict(notTracked(name));
}

// ---------------------------------------------------------------------------------------------------------
// The hold-expiry job
// ---------------------------------------------------------------------------------------------------------

/**
 * Holds that ran out release their units at once (a sent contract counts only while its hold runs); this
 * job tells each rep, once per hold, that the units went back on sale. Safe on every instance at once (one
 * UPDATE marks what it reports). Answers how many holds it reported.
 */
export async function reportExpiredHolds(db: Db, options: { baseUrl: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = await markExpiredHolds(tx);
    for (const hold of expired) {
      if (!hold.sales_rep_id) continue;
      const name = hold.title ?? `Contract ${shortContractId(hold.contract_id)}`;
      const link = `/contracts/${hold.contract_id}`;
      const body = `The hold of ${name}${hold.customer_name ? ` for ${hold.customer_name}` : ''} expired: its inventory slots are available to others again. Activating it takes them again if they are still free.`;
      await notify(tx, {
        to: { userIds: [hold.sales_rep_id] },
        type: 'inventory_hold_expired',
        title: 'Inventory hold expired',
        body,
        link,
        entity: 'contract',
        entityId: hold.contract_id,
        dedupeKey: `inventory-hold:${hold.contract_id}:${new Date(hold.hold_until).toISOString()}`,
        email: { subject: `Inventory hold expired: ${name}`, text: `${body}\n\n${options.baseUrl}${link}` },
      });
    }
    return expired.length;
  });
}

// ---------------------------------------------------------------------------------------------------------
// The renewal-holds job (right of first refusal, product.md section 15)
// ---------------------------------------------------------------------------------------------------------

/**
 * Starts the renewal holds that are due (an inventory line of an active or paused contract whose auto-stop
 * date is at most 60 days away keeps the same days a year later for its renewal, until 30 days before that
 * flight starts), then ends the ones that are over and tells each rep once per contract whose holds ended
 * (in-app and e-mail per their preferences), naming the products and days. A canceled contract's holds stop
 * counting at once (renewalHoldLines) and are released on the next run; a renewal that is active or paused
 * booked the days itself, so its original's holds end without a notice. Safe on every instance at once:
 * one INSERT ... ON CONFLICT DO NOTHING and one UPDATE ... RETURNING decide what each run reports. Each
 * change writes an audit event per contract in the same transaction. `today` is the business's day unless
 * given; `contractIds` limits the holds it starts to those contracts (the demo seeds one hold that way).
 */
export async function runRenewalHolds(
  db: Db,
  options: { baseUrl: string; today?: string; contractIds?: readonly string[] },
): Promise<{ started: number; released: number; notified: number }> {
  const today = options.today ?? businessToday();
  return db.transaction(async (tx) => {
    const started = await insertDueRenewalHolds(tx, today, {
      noticeDays: RENEWAL_HOLD_NOTICE_DAYS,
      releaseDays: RENEWAL_HOLD_RELEASE_DAYS,
      contractIds: options.contractIds,
    });
    const released = await releaseEndedRenewalHolds(tx, today);
    await recordAudits(tx, [
      ...byContract(started).map(([contractId, holds]) => ({
        actorId: null,
        action: 'contract.renewal_hold_started',
        entity: 'contract',
        entityId: contractId,
        after: { holds: holds.map(auditHold) },
      })),
      ...byContract(released).map(([contractId, holds]) => ({
        actorId: null,
        action: 'contract.renewal_hold_released',
        entity: 'contract',
        entityId: contractId,
        after: { holds: holds.map(auditHold) },
      })),
    ]);
    let notified = 0;
    for (const [contractId, holds] of byContract(released)) {
      const told = holds.filter((hold) => hold.release_reason !== 'renewed');
      const first = told[0];
      if (!first?.sales_rep_id) continue;
      const name = first.title ?? `Contract ${shortContractId(contractId)}`;
      const link = `/contracts/${contractId}`;
      const days = told.map((hold) => `${hold.product_name}: ${heldDays(hold)}`).join('; ');
      const why =
        first.release_reason === 'canceled'
          ? 'the contract was canceled'
          : `its renewal did not take them ${RENEWAL_HOLD_RELEASE_DAYS} days before the flight`;
      const body = `The slots held for the renewal of ${name}${first.customer_name ? ` for ${first.customer_name}` : ''} were released (${why}): ${days}. They are available to others again.`;
      await notify(tx, {
        to: { userIds: [first.sales_rep_id] },
        type: 'inventory_hold_expired',
        title: 'Renewal hold released',
        body,
        link,
        entity: 'contract',
        entityId: contractId,
        dedupeKey: `renewal-hold:${contractId}:${told.map((hold) => hold.line_id).join(',')}`,
        email: {
          subject: `Renewal hold released: ${name}`,
          text: `${body}

${options.baseUrl}${link}`,
        },
      });
      notified += 1;
    }
    return { started: started.length, released: released.length, notified };
  });
}

/** "2027-12-20 to 2027-12-24, 1 slot" (or one day). */
function heldDays(hold: RenewalHoldRow): string {
  const days = hold.held_from === hold.held_to ? hold.held_from : `${hold.held_from} to ${hold.held_to}`;
  return `${days}, ${hold.quantity} ${hold.quantity === 1 ? 'slot' : 'slots'}`;
}

function auditHold(hold: RenewalHoldRow) {
  return {
    lineId: hold.line_id,
    product: hold.product_name,
    quantity: hold.quantity,
    heldFrom: hold.held_from,
    heldTo: hold.held_to,
    releaseOn: hold.release_on,
    ...(hold.release_reason ? { releaseReason: hold.release_reason } : {}),
  };
}

function byContract(holds: readonly RenewalHoldRow[]): [string, RenewalHoldRow[]][] {
  return [...groupBy(holds, (hold) => hold.contract_id)];
}
