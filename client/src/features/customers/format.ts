import type { Customer } from '@shared/contracts/customers';

/** "1 contract", "3 contracts". */
export function contractCountLabel(count: number): string {
  return `${count} contract${count === 1 ? '' : 's'}`;
}

/** "Denver, CO", "Denver", "CO", or null when neither is known. */
export function placeLabel(customer: Pick<Customer, 'city' | 'state'>): string | null {
  return [customer.city, customer.state].filter(Boolean).join(', ') || null;
}

/**
 * A billing mode in a card's few words (the dialog shows shared/contracts/agencies.ts's longer labels; importing
 * them here would bring zod into the customer page's first load).
 */
export const BILLING_MODE_SHORT: Record<'net' | 'gross', string> = {
  net: 'Net (commission deducted on the invoice)',
  gross: 'Gross (commission paid to the agency)',
};

/** "Jan 5, 2026 – Dec 31, 2026", or "From Jan 5, 2026" while open-ended. */
export function periodLabel(from: string, to: string | null, formatDate: (day: string) => string): string {
  return to ? `${formatDate(from)} – ${formatDate(to)}` : `From ${formatDate(from)}`;
}
