import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import type { RangeErrors } from '../lib/range';

/**
 * The calendar's range: two days, checked as the API checks them; each field shows its own message. "Holiday
 * season" sets October to December again when another range is shown.
 */
export function RangePicker({
  from,
  to,
  errors,
  onChange,
  onSeason,
}: {
  from: string;
  to: string;
  errors: RangeErrors | null;
  onChange: (range: { from: string; to: string }) => void;
  /** Absent while the season is shown. */
  onSeason?: () => void;
}) {
  return (
    <fieldset className="grid grid-cols-2 items-start gap-3 sm:flex sm:flex-wrap">
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
      {onSeason && (
        <Button variant="ghost" className="col-span-2 justify-self-start sm:mt-5" onClick={onSeason}>
          Holiday season
        </Button>
      )}
    </fieldset>
  );
}
