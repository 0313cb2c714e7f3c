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
} as const;

/** "Only 1 of 3 slots left on 2026-12-20 for Holiday Pre-roll": the 409 of a sale that would oversell a day. */
export function soldOutMessage(left: number, capacity: number, date: string, productName: string): string {
  return `Only ${Math.max(0, left)} of ${capacity} slots left on ${date} for ${productName}`;
}

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

/** October to December of the given day's year: the Inventory screen's default range. */
export function holidaySeason(today: string): { from: string; to: string } {
  const year = today.slice(0, 4);
  return { from: `${year}-10-01`, to: `${year}-12-31` };
}

/** One day of an inventory product: units booked (active, paused), held (sent, hold not expired), left. */
export type AvailabilityDay = {
  date: string;
  capacity: number;
  booked: number;
  held: number;
  /** capacity - booked - held, never below 0. */
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

/** GET /api/inventory: every inventory product (active or archived with units taken) over the range. */
export type InventoryCalendar = {
  from: string;
  to: string;
  products: (ProductAvailability & { adType: string; isActive: boolean })[];
};

/**
 * A contract holding or booking a day (GET /api/inventory/{productId}/{date}): one row per contract and flight
 * end. `contract` is there only for a caller who may see it (inventory:read:any, or a sales rep's own
 * contract with inventory:read:own); for anyone else it is null and the row says no more than how many units
 * are booked or held and until when, nothing that names the deal or the customer.
 */
export type InventoryHolder = {
  /** held: a sent contract within its hold; booked: active or paused. */
  kind: 'held' | 'booked';
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
  status: 'sent' | 'active' | 'paused';
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
