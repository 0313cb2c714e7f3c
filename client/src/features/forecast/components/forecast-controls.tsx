import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import type { PersonOption } from '@/lib/people-options';
import { type ForecastParams, MONTH_CHOICES } from '../lib/params';

const ALL = 'all';
const MONTH_OPTIONS = MONTH_CHOICES.map((months) => ({ value: String(months), label: `${months} months` }));

/** How many months from this one, and (for those who see every rep) whose forecast. */
export function ForecastControls({
  params,
  onChange,
  reps,
}: {
  params: ForecastParams;
  onChange: (changes: { months?: number; ownerId?: string | null }) => void;
  /** The rep filter's choices; null hides it (a rep sees their own forecast), undefined while they load. */
  reps: PersonOption[] | null | undefined;
}) {
  const repOptions = [
    { value: ALL, label: 'All reps' },
    ...(reps ?? []).map((rep) => ({ value: rep.id, label: rep.isActive ? rep.name : `${rep.name} (inactive)` })),
  ];
  const owner = params.ownerId ?? ALL;
  return (
    <div className="mb-4 grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
      <div className="grid gap-1 sm:w-40">
        <Label htmlFor="forecast-months" className="text-xs text-muted-foreground">
          Months
        </Label>
        <LazySelect
          id="forecast-months"
          value={String(params.months)}
          onValueChange={(value) => onChange({ months: Number(value) })}
          placeholder="12 months"
          display={`${params.months} months`}
          options={MONTH_OPTIONS}
        />
      </div>
      {reps !== null && (
        <div className="grid gap-1 sm:w-56">
          <Label htmlFor="forecast-rep" className="text-xs text-muted-foreground">
            Rep
          </Label>
          <LazySelect
            id="forecast-rep"
            value={owner}
            onValueChange={(value) => onChange({ ownerId: value === ALL ? null : value })}
            placeholder="All reps"
            display={repOptions.find((option) => option.value === owner)?.label ?? 'Loading reps...'}
            options={repOptions}
          />
        </div>
      )}
    </div>
  );
}
