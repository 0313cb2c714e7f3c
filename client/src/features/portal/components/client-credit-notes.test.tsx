import type { CreditNote, CustomerCredit } from '@shared/contracts/credit-notes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { clientCreditQueryOptions } from '../api/get-client-credit';
import { clientCreditNotesQueryOptions } from '../api/get-client-credit-notes';
import { ClientCreditNotes } from './client-credit-notes';

const CUSTOMER = 'cu-1';

const note: CreditNote = {
  id: 'cn-1',
  number: 'CN-2026-000004',
  kind: 'partial',
  reason: 'Goodwill',
  invoiceId: 'inv-1',
  invoiceNumber: 'INV-2026-000021',
  contractId: 'c-1',
  customerId: CUSTOMER,
  customerName: 'Holiday Lights Co.',
  amount: 75.5,
  tax: 0,
  appliedToInvoice: 75.5,
  toCreditBalance: 0,
  issuedAt: '2026-05-10T12:00:00.000Z',
  exports: [],
};

function render(data: { notes?: CreditNote[]; balance?: number }) {
  const client = new QueryClient();
  if (data.notes) {
    client.setQueryData(clientCreditNotesQueryOptions(0).queryKey, {
      rows: data.notes,
      total: data.notes.length,
      totalIsLowerBound: false,
    });
  }
  if (data.balance !== undefined) {
    client.setQueryData(clientCreditQueryOptions(CUSTOMER).queryKey, {
      customerId: CUSTOMER,
      balance: data.balance,
      entries: [],
    } satisfies CustomerCredit);
  }
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ClientCreditNotes customerId={CUSTOMER} actions={(n) => <button type="button">PDF of {n.number}</button>} />
    </QueryClientProvider>,
  );
}

describe('ClientCreditNotes', () => {
  it('lists the credit notes with their invoice, amount, date and the page given actions', () => {
    const html = render({ notes: [note], balance: 0 });
    expect(html).toContain('Credit Notes');
    // Rendered without a window, the screen counts as a phone: a card per credit note, the amount on top.
    expect(html).toContain('data-testid="client-credit-note"');
    expect(html).toMatch(/data-card-role="amount"><div[^>]*>\$75.50<\/div>/);
    expect(html).toContain('CN-2026-000004');
    expect(html).toContain('INV-2026-000021');
    expect(html).toContain('$75.50');
    expect(html).toContain('May 10, 2026');
    expect(html).toContain('PDF of CN-2026-000004');
  });

  it('shows the credit balance only when there is one', () => {
    expect(render({ notes: [note], balance: 42 })).toContain(
      'data-testid="client-credit-balance">Credit balance: $42.00</span>',
    );
    expect(render({ notes: [note], balance: 0 })).not.toContain('Credit balance');
    expect(render({ notes: [note] })).not.toContain('Credit balance');
  });

  it('says "No credit notes" when there are none, and shows placeholders while loading', () => {
    expect(render({ notes: [], balance: 0 })).toContain('No credit notes');
    const loading = render({});
    expect(loading).toContain('aria-label="Loading"');
    expect(loading).not.toContain('No credit notes');
  });
});
