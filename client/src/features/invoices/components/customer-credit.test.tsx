import type { User } from '@shared/contracts/auth';
import type { CustomerCredit as Credit, CreditNote } from '@shared/contracts/credit-notes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Dialog } from '@/components/ui/dialog';
import { meQueryKey } from '@/features/auth/api/me';
import { creditNotesQueryOptions } from '../api/get-credit-notes';
import { customerCreditQueryOptions } from '../api/get-customer-credit';
import { CustomerCredit, entryLabel, signedMoney } from './customer-credit';
import { RefundForm } from './refund-credit-dialog';

const CUSTOMER = 'cu-1';

const credit: Credit = {
  customerId: CUSTOMER,
  balance: 65,
  entries: [
    {
      id: 'e-3',
      kind: 'refunded',
      amount: -25,
      creditNoteId: null,
      creditNoteNumber: null,
      invoiceId: null,
      invoiceNumber: null,
      method: 'check',
      reference: 'Check #88',
      createdAt: '2026-03-06T09:00:00.000Z',
    },
    {
      id: 'e-2',
      kind: 'applied',
      amount: -10,
      creditNoteId: null,
      creditNoteNumber: null,
      invoiceId: 'inv-2',
      invoiceNumber: 'INV-2026-000002',
      method: null,
      reference: null,
      createdAt: '2026-03-05T09:00:00.000Z',
    },
    {
      id: 'e-1',
      kind: 'credit',
      amount: 100,
      creditNoteId: 'cn-1',
      creditNoteNumber: 'CN-2026-000001',
      invoiceId: 'inv-1',
      invoiceNumber: 'INV-2026-000001',
      method: null,
      reference: null,
      createdAt: '2026-03-04T09:00:00.000Z',
    },
  ],
};

const note: CreditNote = {
  id: 'cn-1',
  number: 'CN-2026-000001',
  kind: 'partial',
  reason: 'A reason long enough to be cut short in the table, with the whole of it on hover',
  invoiceId: 'inv-1',
  invoiceNumber: 'INV-2026-000001',
  contractId: 'c-1',
  customerId: CUSTOMER,
  customerName: 'Frost & Pine Outfitters',
  amount: 150,
  tax: 0,
  appliedToInvoice: 50,
  toCreditBalance: 100,
  issuedAt: '2026-03-04T09:00:00.000Z',
  exports: [],
};

function render(role: User['role'], data: { credit?: Credit; notes?: CreditNote[] }) {
  const client = new QueryClient();
  client.setQueryData(meQueryKey, { role } as User);
  if (data.credit) client.setQueryData(customerCreditQueryOptions(CUSTOMER).queryKey, data.credit);
  if (data.notes) {
    client.setQueryData(creditNotesQueryOptions({ customerId: CUSTOMER, page: 0, pageSize: 10 }).queryKey, {
      rows: data.notes,
      total: data.notes.length,
      totalIsLowerBound: false,
    });
  }
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <CustomerCredit customerId={CUSTOMER} customerName="Frost & Pine Outfitters" />
    </QueryClientProvider>,
  );
}

describe('entryLabel and signedMoney', () => {
  it('says what each movement was, and how a refund was paid', () => {
    expect(credit.entries.map(entryLabel)).toEqual([
      'Credit refunded · Check · Check #88',
      'Credit applied',
      'Credit beyond the amount due',
    ]);
  });

  it('signs amounts: a plus for credit gained, a minus for credit used or paid back', () => {
    expect(signedMoney(100)).toBe('+$100.00');
    expect(signedMoney(-1234.5)).toBe('-$1,234.50');
    expect(signedMoney(0)).toBe('$0.00');
  });
});

describe('CustomerCredit', () => {
  it('shows the balance, its movements and the credit notes; finance may refund the balance', () => {
    const html = render('finance', { credit, notes: [note] });
    expect(html).toContain('data-testid="credit-balance">$65.00<');
    expect(html.match(/data-testid="credit-entry"/g)).toHaveLength(3);
    expect(html).toContain('+$100.00');
    expect(html).toContain('-$25.00');
    expect(html).toContain('aria-label="View invoice INV-2026-000002"');
    expect(html).toContain('data-number="CN-2026-000001"');
    expect(html).toContain(`title="${note.reason}"`);
    expect(html).toContain('>Credit</span>');
    expect(html).toContain('$150.00');
    expect(html).toContain('aria-label="Download CN-2026-000001 as PDF"');
    expect(html).toContain('Refund Credit');
  });

  it('offers no refund to roles that cannot manage invoices, nor when there is no balance', () => {
    expect(render('sales_manager', { credit, notes: [note] })).not.toContain('Refund Credit');
    expect(render('admin', { credit: { ...credit, balance: 0 }, notes: [note] })).not.toContain('Refund Credit');
  });

  it('shows placeholders while loading, and empty lists for a customer without credit', () => {
    const loading = render('finance', {});
    expect(loading).toContain('aria-label="Loading"');
    expect(loading).not.toContain('Refund Credit');
    const empty = render('finance', { credit: { customerId: CUSTOMER, balance: 0, entries: [] }, notes: [] });
    expect(empty).toContain('data-testid="credit-balance">$0.00<');
    expect(empty).toContain('No movements yet');
    expect(empty).toContain('No credit notes');
  });
});

describe('RefundForm', () => {
  it('starts at the whole balance, at most that, with the manual methods to choose from', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <Dialog open>
          <RefundForm
            target={{ customerId: CUSTOMER, customerName: 'Frost & Pine Outfitters', balance: 65 }}
            onDone={() => {}}
          />
        </Dialog>
      </QueryClientProvider>,
    );
    expect(html).toContain('Refund credit');
    expect(html).toContain('data-testid="refund-credit-balance">$65.00<');
    expect(html).toContain('At most $65.00');
    expect(html).toContain('aria-label="Method"');
    expect(html).toContain('>Refund Credit</button>');
  });
});
