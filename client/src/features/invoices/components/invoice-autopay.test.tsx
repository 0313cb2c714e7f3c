import type { User } from '@shared/contracts/auth';
import type { InvoiceAutopay } from '@shared/contracts/autopay';
import type { Invoice } from '@shared/contracts/invoices';
import { MutationObserver, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meQueryKey } from '@/features/auth/api/me';
import { chargeInvoiceMutation } from '../api/charge-invoice';
import { invoiceAutopayOf, invoiceQueryOptions } from '../api/get-invoice';
import { attemptTime, InvoiceAutopaySection, monthDay, scheduledLine } from './invoice-autopay';

const scheduled: InvoiceAutopay = {
  method: 'Visa •••• 4242',
  scheduledOn: '2026-12-08',
  attempts: [],
  canChargeNow: true,
};

const retried: InvoiceAutopay = {
  method: 'Visa •••• 4242',
  scheduledOn: null,
  attempts: [
    {
      number: 1,
      at: '2026-12-08T12:00:00.000Z',
      status: 'failed',
      amount: 240,
      method: 'Visa •••• 4242',
      reason: 'Insufficient funds',
      nextAttemptOn: '2026-12-09',
    },
    {
      number: 2,
      at: '2026-12-09T12:00:00.000Z',
      status: 'requires_action',
      amount: 240,
      method: 'Visa •••• 4242',
      reason: null,
      nextAttemptOn: null,
    },
  ],
  canChargeNow: false,
};

const invoiceWith = (autopay: InvoiceAutopay | undefined) =>
  ({ id: 'inv-1', number: 'INV-2026-000042', ...(autopay === undefined ? {} : { autopay }) }) as Invoice;

function render(role: User['role'], autopay: InvoiceAutopay | undefined) {
  const client = new QueryClient();
  client.setQueryData(meQueryKey, { role } as User);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <InvoiceAutopaySection invoice={invoiceWith(autopay)} />
    </QueryClientProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('monthDay and scheduledLine', () => {
  it('writes the day as "Mon D" from the date itself, and the scheduled charge only before any attempt', () => {
    expect(monthDay('2026-12-08')).toBe('Dec 8');
    expect(monthDay('2027-01-31')).toBe('Jan 31');
    expect(scheduledLine(scheduled)).toBe('Autopay: Visa •••• 4242 on Dec 8');
    expect(scheduledLine(retried)).toBeNull();
    expect(scheduledLine({ ...scheduled, method: null })).toBeNull();
    expect(scheduledLine(null)).toBeNull();
  });

  it('writes an attempt\'s time as "Mon D, h:mm AM", without the year', () => {
    expect(attemptTime('2026-12-08T12:00:00.000Z')).toMatch(/^Dec [78], \d{1,2}:00 [AP]M$/);
    expect(attemptTime('2026-12-08T12:00:00.000Z')).toBe(
      new Date('2026-12-08T12:00:00.000Z').toLocaleString('en-US', {
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }),
    );
  });
});

describe('InvoiceAutopaySection', () => {
  it('shows the scheduled charge, and Charge now to finance when the server allows it', () => {
    const html = render('finance', scheduled);
    expect(html).toContain('<h3 id="invoice-autopay"');
    expect(html).toContain('data-testid="invoice-autopay-scheduled">Autopay: Visa •••• 4242 on Dec 8</p>');
    expect(html).not.toContain('data-testid="autopay-attempt"');
    expect(html).toContain('Charge now');
  });

  it('lists the attempts with their result, reason and next attempt instead of the scheduled line', () => {
    const html = render('admin', retried);
    expect(html).not.toContain('invoice-autopay-scheduled');
    expect(html.match(/data-testid="autopay-attempt"/g)).toHaveLength(2);
    const shown = text(html);
    // Rendered without a window, the table is its phone layout: a card per attempt, labels beside values.
    // Short dates ("Dec 8"), so the table fits the dialog's column at desktop width.
    expect(shown).toMatch(
      /Attempt 1 Failed When Dec 8, \d{1,2}:00 [AP]M Reason Insufficient funds Next attempt Dec 9 /,
    );
    expect(shown).toMatch(/Attempt 2 Needs the customer When Dec 9, \d{1,2}:00 [AP]M Reason — Next attempt — /);
    expect(shown).not.toContain('2026');
    // A card's title shows the word "Attempt" (screen readers only from the sm breakpoint, under the header).
    expect(html).toContain('<span class="sm:sr-only">Attempt </span>1</div>');
    expect(html).not.toContain('<span class="sr-only">Attempt </span>');
    expect(html).toContain('<time dateTime="2026-12-09">Dec 9</time>');
    // canChargeNow is false: an attempt waits for the customer.
    expect(html).not.toContain('Charge now');
  });

  it('offers Charge now to invoice managers only', () => {
    const allowed = { super_admin: true, admin: true, finance: true, sales_manager: false, sales: false } as const;
    for (const [role, shown] of Object.entries(allowed)) {
      expect(render(role as User['role'], scheduled).includes('Charge now'), role).toBe(shown);
    }
  });

  it('shows nothing when the invoice has no autopay, or before the answer carries it', () => {
    expect(render('finance', null)).toBe('');
    expect(render('finance', undefined)).toBe('');
    expect(invoiceAutopayOf(invoiceWith(undefined))).toBeNull();
  });
});

describe('Charge now', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts to /api/invoices/{id}/charge and puts the answered invoice in the dialog', async () => {
    const charged = { ...invoiceWith(retried), status: 'paid' } as Invoice;
    const fetch = vi.fn(async () => new Response(JSON.stringify(charged), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('localStorage', { getItem: () => null });
    const client = new QueryClient();

    await new MutationObserver(client, chargeInvoiceMutation(client)).mutate('inv-1');

    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/invoices/inv-1/charge');
    expect(init.method).toBe('POST');
    expect(client.getQueryData(invoiceQueryOptions('inv-1').queryKey)).toEqual(charged);
  });
});
