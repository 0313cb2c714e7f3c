import type { InvoiceSummary } from '@shared/contracts/invoices';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { clientContractInvoicesQueryOptions } from '../api/get-client-contract-invoices';
import { recentClientInvoicesQueryOptions } from '../api/get-client-invoices';
import { ClientContractInvoices } from './client-contract-invoices';
import { RecentInvoices } from './recent-invoices';

const CONTRACT = 'c-1';

const base: InvoiceSummary = {
  id: 'inv-1',
  number: 'INV-2026-000021',
  contractId: CONTRACT,
  customerId: 'cu-1',
  customerName: 'Holiday Lights Co.',
  contractTitle: 'Holiday Lights',
  periodIndex: 0,
  periodStart: '2026-11-01',
  periodEnd: '2026-11-30',
  dueDate: '2026-12-15',
  status: 'pending',
  subtotal: 1500,
  setupFee: 0,
  agencyCommission: 0,
  agencyBillingMode: null,
  tax: 0,
  taxLabel: 'Sales tax',
  taxRate: 0,
  taxIncluded: false,
  total: 1500,
  amount: 1500,
  amountPaid: 0,
  amountDue: 1500,
  refunded: 0,
  credited: 0,
  creditable: 1500,
  inSeason: true,
  paidAt: null,
  voidedAt: null,
  voidReason: null,
  issuedAt: '2026-11-01T08:00:00.000Z',
  overdue: false,
  dunningStage: null,
};

const page = (rows: InvoiceSummary[]) => ({ rows, total: rows.length, totalIsLowerBound: false });

/** Both lists of the client's invoices, each showing the one invoice. */
function renderBoth(invoice: InvoiceSummary): Record<'recent' | 'contract', string> {
  const client = new QueryClient();
  client.setQueryData(recentClientInvoicesQueryOptions.queryKey, page([invoice]));
  client.setQueryData(clientContractInvoicesQueryOptions(CONTRACT, 0).queryKey, page([invoice]));
  const render = (node: React.ReactNode) =>
    renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
  return {
    recent: render(<RecentInvoices actions={(i) => <button type="button">PDF of {i.number}</button>} />),
    contract: render(
      <ClientContractInvoices
        contractId={CONTRACT}
        actions={(i) => <button type="button">PDF of {i.number}</button>}
      />,
    ),
  };
}

/** The amount cell's contents (rendered without a window, a row is a card with the amount on top). */
const amountCell = (html: string) =>
  html.match(/data-card-role="amount"><div class="[^"]*">(.*?)<\/div><div[^>]*>Amount<\/div>/)?.[1];

const DUE_LINE = '<span class="block text-xs font-normal text-muted-foreground">';

describe('the portal’s invoice columns (recent invoices and a contract’s invoices)', () => {
  it('lay out the same columns in both lists: number and period, due date, amount, status, the page’s actions', () => {
    for (const html of Object.values(renderBoth(base))) {
      expect(html).toContain(`INV-2026-000021${DUE_LINE}Nov 1, 2026 – Nov 30, 2026</span>`);
      expect(html).toMatch(/<dt[^>]*>Due<\/dt><dd[^>]*>Dec 15, 2026<\/dd>/);
      expect(html).toMatch(/data-testid="invoice-status">Pending<\/span>/);
      expect(html).toContain('<button type="button">PDF of INV-2026-000021</button>');
    }
  });

  it('show what is still due on a payable invoice partly paid or credited, in both lists', () => {
    const cases: [string, Partial<InvoiceSummary>, string][] = [
      ['pending, part paid', { amountPaid: 1000, amountDue: 500 }, `$1,500.00${DUE_LINE}$500.00 due</span>`],
      [
        'failed card, part paid',
        { status: 'failed', amountPaid: 1000, amountDue: 500 },
        `$1,500.00${DUE_LINE}$500.00 due</span>`,
      ],
      ['pending, part credited', { credited: 300, amountDue: 1200 }, `$1,500.00${DUE_LINE}$1,200.00 due</span>`],
    ];
    for (const [name, change, cell] of cases) {
      const { recent, contract } = renderBoth({ ...base, ...change });
      expect(amountCell(recent), name).toBe(cell);
      expect(amountCell(contract), name).toBe(cell);
    }
  });

  it('show the amount alone when nothing of it is paid yet, or nothing is due', () => {
    const cases: [string, Partial<InvoiceSummary>][] = [
      ['pending, nothing paid', {}],
      ['failed card, nothing paid', { status: 'failed' }],
      ['paid', { status: 'paid', amountPaid: 1500, amountDue: 0 }],
      ['void after a part payment', { status: 'void', amountPaid: 1000, amountDue: 0, refunded: 1000 }],
    ];
    for (const [name, change] of cases) {
      const { recent, contract } = renderBoth({ ...base, ...change });
      expect(amountCell(recent), name).toBe('$1,500.00');
      expect(amountCell(contract), name).toBe('$1,500.00');
    }
  });
});
