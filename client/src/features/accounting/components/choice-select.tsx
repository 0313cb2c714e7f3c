import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/**
 * A select of one of a fixed list of choices, each shown by its label (the export's format, the files' date
 * format). Its trigger takes FormField's id and aria wiring, so the field's label names it.
 */
export function ChoiceSelect<T extends string>({
  value,
  onChange,
  choices,
  labels,
  ...trigger
}: {
  value: string;
  onChange: (value: string) => void;
  choices: readonly T[];
  labels: Record<T, string>;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger {...trigger}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {choices.map((choice) => (
          <SelectItem key={choice} value={choice}>
            {labels[choice]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
