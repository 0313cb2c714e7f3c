import { useEffect, useRef } from 'react';
import type { LazySelectProps } from './lazy-select';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select';

/**
 * The Radix select behind lazy-select.tsx, loaded on the first use of any of them. It takes the place of the
 * button shown until then: open at once when the user opened it (a click, Enter, Space, an arrow key), and
 * focused when that button had the focus.
 */
export default function LazyRadixSelect({
  value,
  onValueChange,
  onBlur,
  placeholder,
  display,
  options,
  open,
  focus,
  ...trigger
}: LazySelectProps & { open: boolean; focus: boolean }) {
  const ref = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when it first takes the button's place
  useEffect(() => {
    if (focus && !open) ref.current?.focus();
  }, []);
  return (
    <Select value={value || undefined} onValueChange={onValueChange} defaultOpen={open}>
      <SelectTrigger ref={ref} onBlur={onBlur} {...trigger}>
        <SelectValue placeholder={placeholder}>{display}</SelectValue>
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
