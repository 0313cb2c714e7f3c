import { addDays } from '../billing';

/**
 * Inventory of holiday placements (product.md section 13): a product with inventoryRequired runs at most
 * `capacity` units (slots) a day. A line of it takes `quantity` units on every day of its flight: held
 * while its contract is sent (until the hold expires), booked while it is active or paused.
 */

export const MIN_CAPACITY = 1;
export const MAX_CAPACITY = 1000;
/** At most this many days per availability call. */
export const MAX_AVAILABILITY_DAYS = 400;
export const DEFAULT_HOLD_DAYS = 7;
export const MAX_HOLD_DAYS = 90;

export const INVENTORY_MESSAGES = {
  capacityRequired: 'Capacity is required for an inventory product',
  capacityWhole: 'Capacity must be a whole number of slots',
  capacityRange: `Capacity must be between ${MIN_CAPACITY} and ${MAX_CAPACITY.toLocaleString('en-US')}`,
  fromRequired: 'from is required (YYYY-MM-DD)',
  toRequired: 'to is required (YYYY-MM-DD)',
  fromNotDate: 'from must be a date (YYYY-MM-DD)',
  toNotDate: 'to must be a date (YYYY-MM-DD)',
  toBeforeFrom: 'to cannot be before from',
  rangeTooLong: `A range can cover at most ${MAX_AVAILABILITY_DAYS} days`,
  quantityWhole: `quantity must be a whole number of slots from 1 to ${MAX_CAPACITY.toLocaleString('en-US')}`,
} as const;

/**
 * "Only 1 of 3 slots left on 2026-12-20 for Holiday Pre-roll": the 409 of a sale that would oversell a day.
 * When units held for renewals take part of the day, `heldFor` names whose renewal (a customer, or a
 * contract's short id for a caller who may not see the customer): "... (held for the renewal of Acme)".
 */
export function soldOutMessage(
  left: number,
  capacity: number,
  date: string,
  productName: string,
  heldFor: readonly string[] = [],
): string {
  const renewal = heldFor.length > 0 ? ` (held for the renewal of ${heldFor.join(', ')})` : '';
  return `Only ${Math.max(0, left)} of ${capacity} slots left on ${date} for ${productName}${renewal}`;
}

/** "contract 1a2b3c4d": a renewal hold's contract named for a caller who may not see its customer. */
export const renewalHolderShortName = (shortId: string) => `contract ${shortId}`;

/** The right of first refusal (product.md section 15): from 60 days before the auto-stop date... */
export const RENEWAL_HOLD_NOTICE_DAYS = 60;
/** ...until this many days before the held flight starts. */
export const RENEWAL_HOLD_RELEASE_DAYS = 30;

/** An inventory line with no flight end and nothing to default it from (product.md section 13). */
export function flightEndRequiredMessage(productName: string): string {
  return `${productName} is sold by the day: give its line a flight end date`;
}

/** "Capacity cannot go below 2: 2026-12-20 already has 2 slots booked or held". */
export function capacityBelowUseMessage(used: number, date: string): string {
  return `Capacity cannot go below ${used}: ${date} already has ${used} slots booked or held`;
}

/** The number of days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** October to December of the given day's year (the Inventory screen's "Holiday season"). */
export function holidaySeason(today: string): { from: string; to: string } {
  const year = today.slice(0, 4);
  return { from: `${year}-10-01`, to: `${year}-12-31` };
}

/** The Inventory screen's default range: this many whole months, from the current one. */
export const DEFAULT_RANGE_MONTHS = 3;

/** The first day of the month `months` after (or before) a day's month. */
export function monthStart(day: string, months = 0): string {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 10);
}

/** The last day of a day's month. */
export function monthEnd(day: string): string {
  return addDays(monthStart(day, 1), -1);
}

/**
 * The Inventory screen's default range: the business's current month and the next ones (DEFAULT_RANGE_MONTHS
 * whole months in all), `today` being the business's day (BUSINESS_TIMEZONE).
 */
export function currentMonths(today: string, months = DEFAULT_RANGE_MONTHS): { from: string; to: string } {
  return { from: monthStart(today), to: monthEnd(monthStart(today, months - 1)) };
}

/**
 * The range before (-1) or after (+1) another of the same length: whole months step by their number of
 * months (October-December -> January-March), any other range by its number of days.
 */
export function shiftRange(range: { from: string; to: string }, direction: -1 | 1): { from: string; to: string } {
  const wholeMonths = range.from === monthStart(range.from) && range.to === monthEnd(range.to);
  if (wholeMonths) {
    const months =
      (Number(range.to.slice(0, 4)) - Number(range.from.slice(0, 4))) * 12 +
      Number(range.to.slice(5, 7)) -
      Number(range.from.slice(5, 7)) +
      1;
    const from = monthStart(range.from, direction * months);
    return { from, to: monthEnd(monthStart(from, months - 1)) };
  }
  const days = daysInRange(range.from, range.to);
  return { from: addDays(range.from, direction * days), to: addDays(range.to, direction * days) };
}

/**
 * Sell-through: booked unit-days / capacity unit-days (capacity x days), in percent with one decimal, rounded
 * half up in integers (1 of 3 -> 33.3); 0 when there is no capacity. The reports and the Inventory screen's
 * months both use it.
 */
export function sellThroughPercent(bookedUnits: number, capacityUnits: number): number {
  return capacityUnits === 0 ? 0 : Math.floor((bookedUnits * 1000 + capacityUnits / 2) / capacityUnits) / 10;
}

/** How many next free days a sold-out day offers, and how far ahead they are looked for. */
export const NEXT_FREE_COUNT = 3;
export const NEXT_FREE_HORIZON_DAYS = 365;

/**
 * One day of an inventory product: units booked (active, paused), held (sent, hold not expired), held for
 * the renewal of a contract due for renewal (right of first refusal, product.md section 15), left.
 */
export type AvailabilityDay = {
  date: string;
  capacity: number;
  booked: number;
  held: number;
  /**
   * Units kept for the renewal of contracts due for renewal (their lines' same days a year earlier): taken
   * for everyone but that renewal, until 30 days before the flight or until the renewal takes them itself.
   */
  heldForRenewal: number;
  /** capacity - booked - held - heldForRenewal, never below 0. */
  available: number;
};

/** GET /api/products/{id}/availability. */
export type ProductAvailability = {
  productId: string;
  productName: string;
  capacity: number;
  from: string;
  to: string;
  days: AvailabilityDay[];
  /** The first day with the fewest units left (null for an empty range). */
  lowest: { date: string; available: number } | null;
};

/**
 * A month of an inventory product on the Inventory screen, over the days of the month inside the range
 * (docs/decisions/036-inventory-at-a-glance.md):
 * - sell-through as the reports compute it (sellThroughPercent): units booked (active, paused) summed over
 *   the days, against capacity x days; held units are counted apart;
 * - booked value: what the booking lines bill for those days, by the billing engine (shared/billing.ts
 *   billLine): each billed amount of a booking line (a period's, prorated by flight as invoiced; a flat
 *   line's one charge) spread evenly over the days it covers, the month taking its days' share (rounded half
 *   away from zero per line and period). Before tax, at the in-season price in season.
 */
export type InventoryMonth = {
  /** YYYY-MM. */
  month: string;
  /** The month's first and last day inside the range. */
  from: string;
  to: string;
  days: number;
  capacityUnits: number;
  bookedUnits: number;
  heldUnits: number;
  /** bookedUnits / capacityUnits in percent, one decimal. */
  sellThrough: number;
  /** Dollars, like every amount of the API. */
  bookedValue: number;
};

/** GET /api/inventory: every inventory product (active or archived with units taken) over the range. */
export type InventoryCalendar = {
  from: string;
  to: string;
  /** The business's day (BUSINESS_TIMEZONE) when answered. */
  today: string;
  products: (ProductAvailability & { adType: string; isActive: boolean; months: InventoryMonth[] })[];
};

/**
 * A contract holding or booking a day (GET /api/inventory/{productId}/{date}): one row per contract and flight
 * end. `contract` is there only for a caller who may see it (inventory:read:any, or a sales rep's own
 * contract with inventory:read:own); for anyone else it is null and the row says no more than how many units
 * are booked or held and until when, nothing that names the deal or the customer.
 */
export type InventoryHolder = {
  /**
   * held: a sent contract within its hold; booked: active or paused; held_for_renewal: the same days a year
   * after a line of a contract due for renewal, kept for its renewal (`contract` is then that contract).
   */
  kind: 'held' | 'booked' | 'held_for_renewal';
  quantity: number;
  /** The last day of the flight of the contract's lines of this product that take the day; null: no end. */
  endDate: string | null;
  contract: InventoryHolderContract | null;
};

/** Who holds a day, for a caller who may see the contract. */
export type InventoryHolderContract = {
  id: string;
  shortId: string;
  title: string | null;
  customerName: string | null;
  /** A renewal hold's contract may have completed meanwhile (its renewal is still to come). */
  status: 'sent' | 'active' | 'paused' | 'completed';
  /** A held contract's hold end (ISO timestamp). */
  holdUntil: string | null;
  salesRepName: string | null;
  /** Whether the caller may open the contract (a sales rep: their own). */
  canOpen: boolean;
};

export type InventoryDay = AvailabilityDay & {
  productId: string;
  productName: string;
  holders: InventoryHolder[];
  /**
   * The nearest days after this one with at least `quantity` units free (1 unless asked), at most
   * NEXT_FREE_COUNT of them, looked for up to NEXT_FREE_HORIZON_DAYS days ahead.
   */
  nextFree: { quantity: number; dates: string[] };
};

/** Sell-through of one inventory product over a report's range (unit-days). */
export type SellThroughRow = {
  productId: string;
  productName: string;
  capacity: number;
  days: number;
  /** capacity x days. */
  capacityUnits: number;
  bookedUnits: number;
  heldUnits: number;
  /** bookedUnits / capacityUnits in percent, one decimal. */
  sellThrough: number;
};

/** The last day of a flight with no end given, for an inventory line (null: none can be set). */
export function defaultInventoryFlightEnd(
  flightStart: string,
  defaultDuration: number | null,
  termEnd: string | null,
): string | null {
  if (defaultDuration && defaultDuration > 0) {
    const end = addDays(flightStart, defaultDuration - 1);
    return termEnd !== null && end >= termEnd ? addDays(termEnd, -1) : end;
  }
  return termEnd === null ? null : addDays(termEnd, -1);
}
