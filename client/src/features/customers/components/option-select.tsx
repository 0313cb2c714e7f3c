import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/**
 * A select of a few options inside a FormField: the field's id and aria attributes go to the trigger, so its
 * label names it and its message describes it. For the customer dialogs (loaded when they open).
 */
export function OptionSelect({
  value,
  onChange,
  onBlur,
  placeholder,
  options,
  disabled,
  ...trigger
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  placeholder?: string;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange} disabled={disabled}>
      <SelectTrigger onBlur={onBlur} {...trigger}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
