import type { Customer } from '@shared/contracts/customers';

/** "1 contract", "3 contracts". */
export function contractCountLabel(count: number): string {
  return `${count} contract${count === 1 ? '' : 's'}`;
}

/** "Denver, CO", "Denver", "CO", or null when neither is known. */
export function placeLabel(customer: Pick<Customer, 'city' | 'state'>): string | null {
  return [customer.city, customer.state].filter(Boolean).join(', ') || null;
}
