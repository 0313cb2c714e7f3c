/**
 * The booked value of inventory (the Inventory screen's months, product.md section 13): the money a booking
 * line bills for some of its days, read from the billing engine (billLine), never priced again here.
 *
 * Every amount the engine bills for the line covers days: a monthly or CPM line's amount of a billing period
 * covers the days of its flight in that period (prorated as invoiced, at the in-season price in season); a
 * flat line's one charge covers its whole flight. Each amount is spread evenly over the days it covers, and
 * a span of days gets, of each amount, its share: amount x days of the span it covers / days it covers,
 * rounded half away from zero per amount (docs/decisions/036-inventory-at-a-glance.md).
 */
import { type BillableLine, billingPeriod, billLine, billsOnce, daysInRange, periodIndexOn } from './billing';
import { type Cents, divideRound } from './money';

/** A booking line: what it bills (its flight ends; inventory lines always do) and its contract's start. */
export type BookedLine = Pick<
  BillableLine,
  'priceMetric' | 'quantity' | 'unitPriceCents' | 'discountCents' | 'seasonalPriceCents' | 'flightStart'
> & { flightEnd: string; contractStartDate: string };

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/** The days two spans share (0 when none). */
const sharedDays = (a: { start: string; end: string }, b: { start: string; end: string }) =>
  daysInRange(later(a.start, b.start), earlier(a.end, b.end));

/** What `line` bills for the days from `from` to `to` (both included), in cents before tax. */
export function bookedValueCents(line: BookedLine, from: string, to: string): Cents {
  // Written out, not spread: this runs for every booking line and month of the Inventory screen (decision 047).
  const billable: BillableLine = {
    description: '',
    productId: null,
    priceMetric: line.priceMetric,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    discountCents: line.discountCents,
    seasonalPriceCents: line.seasonalPriceCents,
    flightStart: line.flightStart,
    flightEnd: line.flightEnd,
  };
  const span = { start: from, end: to };
  const flight = { start: line.flightStart, end: line.flightEnd };
  if (sharedDays(span, flight) === 0) return 0;
  if (billsOnce(line.priceMetric)) {
    // Billed once, by the period its flight starts in (none when the flight starts before the contract).
    const index = periodIndexOn(line.contractStartDate, line.flightStart);
    if (index < 0) return 0;
    const billed = billLine(billable, billingPeriod(line.contractStartDate, index));
    if (!billed) return 0;
    return divideRound(billed.amountCents * sharedDays(span, flight), daysInRange(flight.start, flight.end));
  }
  // The billing periods the span's days of the flight fall in; days before the contract starts bill nothing.
  const first = later(later(from, line.flightStart), line.contractStartDate);
  const last = earlier(to, line.flightEnd);
  if (first > last) return 0;
  let total = 0;
  for (let index = periodIndexOn(line.contractStartDate, first); ; index++) {
    const period = billingPeriod(line.contractStartDate, index);
    if (period.start > last) break;
    const billed = billLine(billable, period);
    if (!billed?.coversStart || !billed.coversEnd) continue;
    const covers = { start: billed.coversStart, end: billed.coversEnd };
    total += divideRound(billed.amountCents * sharedDays(span, covers), daysInRange(covers.start, covers.end));
  }
  return total;
}
