import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import type { RangeErrors } from '../lib/range';

/**
 * The calendar's range: two days, checked as the API checks them (each field shows its own message); Earlier
 * and Later step to the range before or after of the same length; "Current months" goes back to the default
 * (the current month and the next ones) and "Holiday season" shows October to December.
 */
export function RangePicker({
  from,
  to,
  errors,
  onChange,
  onEarlier,
  onLater,
  onCurrent,
  onSeason,
}: {
  from: string;
  to: string;
  errors: RangeErrors | null;
  onChange: (range: { from: string; to: string }) => void;
  /** Absent while the range is not valid. */
  onEarlier?: () => void;
  onLater?: () => void;
  /** Absent while the current months are shown. */
  onCurrent?: () => void;
  /** Absent while the season is shown. */
  onSeason?: () => void;
}) {
  return (
    <fieldset className="grid grid-cols-2 items-start gap-3 sm:flex sm:flex-wrap sm:items-end">
      <legend className="sr-only">Date range</legend>
      <div className="min-w-0 sm:w-[10.5rem]">
        <FormField label="From" id="inventory-from" error={errors?.from}>
          <Input type="date" value={from} onChange={(event) => onChange({ from: event.target.value, to })} />
        </FormField>
      </div>
      <div className="min-w-0 sm:w-[10.5rem]">
        <FormField label="To" id="inventory-to" error={errors?.to}>
          <Input type="date" value={to} onChange={(event) => onChange({ from, to: event.target.value })} />
        </FormField>
      </div>
      <div className="col-span-2 flex flex-wrap items-center gap-2">
        <fieldset className="flex">
          <legend className="sr-only">Move the range</legend>
          <Button
            variant="outline"
            className="rounded-r-none"
            onClick={onEarlier}
            disabled={!onEarlier}
            aria-label="Earlier: the range before this one"
          >
            <ChevronLeft aria-hidden />
            Earlier
          </Button>
          <Button
            variant="outline"
            className="-ml-px rounded-l-none"
            onClick={onLater}
            disabled={!onLater}
            aria-label="Later: the range after this one"
          >
            Later
            <ChevronRight aria-hidden />
          </Button>
        </fieldset>
        {onCurrent && (
          <Button variant="ghost" onClick={onCurrent}>
            Current months
          </Button>
        )}
        {onSeason && (
          <Button variant="ghost" onClick={onSeason}>
            Holiday season
          </Button>
        )}
      </div>
    </fieldset>
  );
}
