import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCommissionReps } from '../api/get-commission-reps';

const ALL = 'all';

/** Staff who see every rep's commission narrow the screen to one rep (or All reps). */
export function RepFilter({ value, onChange, id }: { value?: string; onChange: (repId?: string) => void; id: string }) {
  const reps = useCommissionReps(true);
  return (
    <div className="w-full sm:w-60">
      <Label htmlFor={id} className="sr-only">
        Sales rep
      </Label>
      <Select value={value ?? ALL} onValueChange={(v) => onChange(v === ALL ? undefined : v)}>
        <SelectTrigger id={id} aria-label="Sales rep">
          <SelectValue placeholder="All reps" />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All reps</SelectItem>
          {reps.data?.map((rep) => (
            <SelectItem key={rep.id} value={rep.id}>
              {rep.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
