import { addDays, billsOnce } from '../billing';
import { defaultInventoryFlightEnd } from './inventory-vocabulary';
import type { PriceMetric } from './product-vocabulary';

/**
 * The flight a contract line is sold with (product.md sections 11 and 13), from what the form or the API
 * gave: from the contract's start unless a start is given; without an end, an inventory line runs its
 * product's default duration (else to the day before the auto-stop date), a flat line its product's default
 * duration within the term, any other line as long as the contract. The server stores it; the contract form's
 * summary previews with it.
 */
export function soldFlight(
  line: { flightStart?: string | null; flightEnd?: string | null },
  product: { priceMetric: PriceMetric; defaultDuration: number | null; inventoryRequired?: boolean },
  contract: { startDate: string; termEnd: string | null },
): { flightStart: string; flightEnd: string | null } {
  const flightStart = line.flightStart ?? contract.startDate;
  let flightEnd = line.flightEnd ?? null;
  if (flightEnd === null && product.inventoryRequired) {
    flightEnd = defaultInventoryFlightEnd(flightStart, product.defaultDuration, contract.termEnd);
  }
  if (flightEnd === null && billsOnce(product.priceMetric) && product.defaultDuration && product.defaultDuration > 0) {
    flightEnd = addDays(flightStart, product.defaultDuration - 1);
    if (contract.termEnd !== null && flightEnd >= contract.termEnd) flightEnd = addDays(contract.termEnd, -1);
  }
  return { flightStart, flightEnd };
}
