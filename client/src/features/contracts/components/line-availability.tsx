import { isCalendarDate } from '@shared/calendar-date';
import { computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import { parseWhole } from '@shared/contracts/contract-vocabulary';
import {
  daysInRange,
  defaultInventoryFlightEnd,
  flightEndRequiredMessage,
  MAX_AVAILABILITY_DAYS,
  soldOutMessage,
} from '@shared/contracts/inventory-vocabulary';
import { AlertTriangle, CalendarCheck } from 'lucide-react';
import { useWatch } from 'react-hook-form';
import { formatDate } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { ProductOption } from '../api/get-contract-options';
import { type AvailabilityRequest, useProductAvailability } from '../api/get-product-availability';
import type { ContractForm } from './contract-form';

type Flight = { from: string; to: string } | { missingEnd: true } | null;

/**
 * The days an inventory line would take (product.md section 13): from its flight start (else the contract's
 * start) to its flight end, else the product's default duration, else the day before the term ends. Null
 * while a date is incomplete or the term is not a number yet.
 */
export function inventoryFlight(
  line: { flightStart?: string; flightEnd?: string },
  contract: { startDate?: string; termMonths?: string },
  defaultDuration: number | null,
): Flight {
  const startDate = contract.startDate?.trim() ?? '';
  const from = line.flightStart?.trim() || startDate;
  const end = line.flightEnd?.trim() ?? '';
  if (!isCalendarDate(from)) return null;
  if (end) return isCalendarDate(end) && end >= from ? { from, to: end } : null;
  const termText = contract.termMonths?.trim() ?? '';
  const term = termText === '' ? null : parseWhole(termText);
  if (term !== null && !(Number.isInteger(term) && term > 0)) return null;
  const termEnd = isCalendarDate(startDate) ? computeAutoStopDate(startDate, term) : null;
  const to = defaultInventoryFlightEnd(from, defaultDuration, termEnd);
  if (to === null) return { missingEnd: true };
  return to >= from ? { from, to } : null;
}

const WARNING =
  'flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900';
const NOTE = 'flex items-start gap-2 text-sm text-muted-foreground';

/**
 * Below a line of an inventory product: what its flight has left, checked as the dates change. A sold-out
 * flight is a warning only: a draft still saves, and the server refuses to send or activate it (409).
 */
export function LineAvailability({
  form,
  index,
  product,
  contractId,
}: {
  form: ContractForm;
  index: number;
  product: ProductOption;
  contractId?: string;
}) {
  const [startDate, termMonths, line] = useWatch({
    control: form.control,
    name: ['startDate', 'termMonths', `lineItems.${index}`],
  });
  const flight = inventoryFlight(line ?? {}, { startDate, termMonths }, product.defaultDuration);
  const tooLong = flight !== null && 'from' in flight && daysInRange(flight.from, flight.to) > MAX_AVAILABILITY_DAYS;
  const wanted: AvailabilityRequest | null =
    flight !== null && 'from' in flight && !tooLong ? { productId: product.id, ...flight, contractId } : null;
  // One request once the dates stop changing, not one per keystroke (a string key: stable between renders).
  const key = JSON.stringify(wanted);
  const sameRequest = useDebouncedValue(key, 400) === key;
  const availability = useProductAvailability(sameRequest ? wanted : null);
  const defaultedEnd = !line?.flightEnd?.trim();
  const quantity = parseWhole(line?.quantity ?? '');
  const units = Number.isInteger(quantity) && quantity > 0 ? quantity : 1;

  if (flight !== null && 'missingEnd' in flight) {
    return (
      <p role="status" className={WARNING} data-testid="line-availability">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        {flightEndRequiredMessage(product.name)}
      </p>
    );
  }
  if (tooLong) {
    return (
      <p className={NOTE} data-testid="line-availability">
        Availability is shown for flights of up to {MAX_AVAILABILITY_DAYS} days.
      </p>
    );
  }
  if (wanted === null) return null;
  if (!sameRequest || availability.isLoading) {
    return (
      <p role="status" className={NOTE} data-testid="line-availability">
        Checking availability…
      </p>
    );
  }
  // A failed check stays quiet: the server checks again when the contract is sent or activated.
  const lowest = availability.data?.lowest;
  if (!availability.data || !lowest) return null;
  const { capacity } = availability.data;
  if (lowest.available < units) {
    const message = soldOutMessage(lowest.available, capacity, lowest.date, product.name);
    return (
      <p role="status" className={WARNING} data-testid="line-availability">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          {`${lowest.available === 0 ? 'Sold out' : 'Not enough slots'}: ${message.charAt(0).toLowerCase()}${message.slice(1)}.`}{' '}
          A draft still saves; sending or activating it is refused until slots free up.
        </span>
      </p>
    );
  }
  const left =
    lowest.available >= capacity
      ? `${capacity} of ${capacity} slots left on every day of the flight`
      : `lowest ${lowest.available} of ${capacity} slots left, on ${lowest.date}`;
  return (
    <p role="status" className={NOTE} data-testid="line-availability">
      <CalendarCheck className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
      <span>
        Availability: {left}
        {defaultedEnd && wanted && `. With no flight end, it runs to ${formatDate(wanted.to)}.`}
      </span>
    </p>
  );
}

export default LineAvailability;
