import { type KeyboardEvent, useState } from 'react';
import { Input } from '@/components/ui/input';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { cn } from '@/lib/utils';
import { type CustomerOption, useCustomerOptions } from '../api/get-customer-options';

/**
 * A search box for an existing customer (a combobox: type to search by name, e-mail or company, the arrow keys and
 * Enter or a click to choose). Typing again after choosing clears the choice until another is made. The id and
 * aria props land on the input for FormField.
 */
export function CustomerPicker({
  value,
  name,
  onChange,
  id,
  emptyText = 'No customer matches. Choose "New prospect" to add one.',
  ...aria
}: {
  value: string;
  name: string;
  onChange: (customer: { id: string; name: string }) => void;
  id?: string;
  /** What the list says when nothing matches (the deal dialog offers a new prospect). */
  emptyText?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const [text, setText] = useState(name);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDebouncedValue(text.trim(), 250);
  const options = useCustomerOptions(q, { enabled: open });
  const rows = options.data ?? [];
  const listId = `${id ?? 'customer'}-options`;
  const optionId = (index: number) => `${listId}-${index}`;

  const choose = (customer: CustomerOption) => {
    onChange({ id: customer.id, name: customer.name });
    setText(customer.name);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      else if (rows.length > 0) {
        setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : rows.length - 1)) % rows.length);
      }
    } else if (event.key === 'Enter' && open && rows[active]) {
      event.preventDefault();
      choose(rows[active]);
    } else if (event.key === 'Escape' && open) {
      // Closes the list, not the dialog around it.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <Input
        id={id}
        {...aria}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && rows[active] ? optionId(active) : undefined}
        autoComplete="off"
        placeholder="Search by name, e-mail or company"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
          if (value) onChange({ id: '', name: '' });
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <div
          id={listId}
          role="listbox"
          aria-label="Customers"
          className="absolute z-50 mt-1 max-h-60 w-full overflow-y-auto rounded-md border bg-white p-1 text-sm shadow-lg"
        >
          {options.isLoading ? (
            <p className="px-2 py-1.5 text-muted-foreground">Searching...</p>
          ) : rows.length === 0 ? (
            <p className="px-2 py-1.5 text-muted-foreground">{emptyText}</p>
          ) : (
            rows.map((customer, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys work in the input (aria-activedescendant)
              <div
                key={customer.id}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={customer.id === value}
                className={cn(
                  'cursor-pointer rounded-sm px-2 py-1.5',
                  index === active && 'bg-muted',
                  customer.id === value && 'font-medium',
                )}
                // Keeps the focus in the input, so the click chooses before the list closes.
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(customer)}
              >
                <span className="block text-slate-900">{customer.name}</span>
                <span className="block text-xs text-muted-foreground">
                  {customer.email}
                  {customer.company ? ` · ${customer.company}` : ''}
                </span>
              </div>
            ))
          )}
        </div>
      )}
    </div>
  );
}
