import type { User } from '@shared/contracts/auth';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { clientInvoicesQueryOptions } from '../api/get-client-invoices';
import { ClientDashboard } from './client-dashboard';

const invoice: InvoiceSummary = {
  id: 'inv-0000665c11',
  number: 'INV-2026-000099',
  contractId: 'c-1',
  customerId: 'cu-1',
  customerName: 'Holiday Lights Co.',
  contractTitle: 'Holiday Lights',
  periodIndex: 0,
  periodStart: '2026-12-01',
  periodEnd: '2026-12-31',
  dueDate: '2026-12-08',
  status: 'pending',
  subtotal: 1800,
  setupFee: 0,
  agencyCommission: 0,
  agencyBillingMode: null,
  tax: 0,
  taxLabel: 'Sales tax',
  taxRate: 0,
  taxIncluded: false,
  total: 1800,
  amount: 1800,
  amountPaid: 0,
  amountDue: 1800,
  refunded: 0,
  credited: 0,
  creditable: 1800,
  inSeason: true,
  paidAt: null,
  voidedAt: null,
  voidReason: null,
  issuedAt: '2026-12-01T08:00:00.000Z',
  overdue: false,
  dunningStage: null,
};

const user = { id: 'u-1', firstName: 'Chris', lastName: 'Holiday', role: 'client' } as User;

/** The dashboard's Recent Invoices row of the one invoice the client has. */
function invoiceRow(shown: InvoiceSummary): string {
  const client = new QueryClient();
  client.setQueryData(clientInvoicesQueryOptions.queryKey, { rows: [shown], total: 1, totalIsLowerBound: false });
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <Router ssrPath="/">
        <ClientDashboard user={user} />
      </Router>
    </QueryClientProvider>,
  );
  return html.match(/<li[^>]*data-testid="dashboard-invoice"[^>]*>(.*?)<\/li>/)?.[1] ?? '';
}

const DUE = '<span class="block text-xs text-muted-foreground">';

describe("the client dashboard's Recent Invoices", () => {
  it('shows what is still due below the amount of an invoice partly paid, as the portal does', () => {
    const row = invoiceRow({ ...invoice, amountPaid: 575, amountDue: 1225 });
    expect(row).toContain('Invoice #665c11');
    expect(row).toContain(`$1,800.00${DUE}$1,225.00 due</span>`);
  });

  it('shows the amount alone when nothing of it is paid, and on a paid invoice', () => {
    for (const shown of [invoice, { ...invoice, status: 'paid', amountPaid: 1800, amountDue: 0 } as InvoiceSummary]) {
      const row = invoiceRow(shown);
      expect(row).toContain('$1,800.00</span>');
      expect(row).not.toContain(' due</span>');
    }
  });
});
