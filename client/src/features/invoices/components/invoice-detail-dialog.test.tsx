import type { Invoice } from '@shared/contracts/invoices';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deliveryPeriodSample } from '@/lib/delivery-sample';
import { creditNoteSample } from './credit-note-sample';
import {
  CreditNoteList,
  ExportedNote,
  InvoiceFigures,
  InvoiceLines,
  ProofOfPerformance,
} from './invoice-detail-dialog';

const render = (node: ReactNode) =>
  renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

const invoice = {
  subtotal: 400,
  tax: 0,
  taxLabel: 'Sales tax',
  taxRate: 0,
  taxIncluded: false,
  total: 400,
  amountPaid: 150,
  refunded: 0,
  amountDue: 240,
  credited: 10,
  creditApplied: 0,
  creditable: 390,
} as Invoice;

const note = creditNoteSample();

describe('InvoiceFigures', () => {
  it('shows what was credited, and the amount due after it', () => {
    const html = render(<InvoiceFigures invoice={invoice} />);
    expect(html).toContain('<dt>Credited</dt><dd class="tabular-nums">$10.00</dd>');
    expect(html).toMatch(/data-testid="invoice-amount-due"><dt>Amount due<\/dt><dd class="tabular-nums">\$240\.00</);
    expect(html).not.toContain('Credit applied');
  });

  it('shows the credit applied from the balance, and no credit rows on an invoice without credit', () => {
    const applied = render(<InvoiceFigures invoice={{ ...invoice, credited: 0, creditApplied: 25 }} />);
    expect(applied).toContain('<dt>Credit applied</dt><dd class="tabular-nums">$25.00</dd>');
    expect(applied).not.toContain('Credited');
    const plain = render(<InvoiceFigures invoice={{ ...invoice, credited: 0, creditApplied: 0 }} />);
    expect(plain).not.toContain('Credit');
  });
});

describe('an invoice billed net to an agency (product.md section 20)', () => {
  const line = (fields: Partial<Invoice['lines'][number]>): Invoice['lines'][number] => ({
    id: 'l-1',
    kind: 'product',
    description: 'Pre-roll',
    productId: 'p-1',
    quantity: 1,
    unitPrice: 1000,
    discount: 0,
    amount: 1000,
    seasonal: false,
    priceMetric: null,
    coversStart: null,
    coversEnd: null,
    proratedDays: null,
    periodDays: null,
    impressions: null,
    ...fields,
  });

  it('lists the negative commission line last, as "-$150.00"', () => {
    const html = render(
      <InvoiceLines
        invoice={{
          number: 'INV-2026-000007',
          lines: [
            line({}),
            line({
              id: 'l-2',
              kind: 'agency_commission',
              description: 'Agency commission 15%',
              productId: null,
              unitPrice: -150,
              amount: -150,
            }),
          ],
        }}
      />,
    );
    expect(html).toContain('Agency commission 15%');
    expect(html.indexOf('Agency commission 15%')).toBeGreaterThan(html.indexOf('Pre-roll'));
    expect(html.match(/-\$150\.00/g)).toHaveLength(2);
    expect(html).not.toContain('$-150');
  });

  it('shows the net of the commission under the subtotal, tax and total on it; nothing of it billed gross', () => {
    // $1,000.00 less 15% ($150.00) = $850.00; 8.25% tax = $70.13; total $920.13.
    const net = {
      ...invoice,
      subtotal: 1000,
      agencyCommission: 150,
      agencyBillingMode: 'net',
      tax: 70.13,
      taxRate: 8.25,
      total: 920.13,
    } as Invoice;
    const html = render(<InvoiceFigures invoice={net} />);
    expect(html).toContain('<dt>Net of agency commission</dt><dd class="tabular-nums">$850.00</dd>');
    expect(html.indexOf('Net of agency commission')).toBeGreaterThan(html.indexOf('Subtotal'));
    expect(html).toContain('$920.13');
    const gross = render(<InvoiceFigures invoice={{ ...net, agencyBillingMode: 'gross', tax: 82.5, total: 1082.5 }} />);
    expect(gross).not.toContain('agency commission');
  });
});

describe('CreditNoteList', () => {
  it('lists each credit note with its number, kind, reason, amount, date and PDF button', () => {
    const html = render(
      <CreditNoteList notes={[note, { ...note, id: 'cn-2', number: 'CN-2026-000002', kind: 'void' }]} />,
    );
    expect(html).toContain('<h3 id="invoice-credit-notes"');
    expect(html.match(/data-testid="invoice-credit-note"/g)).toHaveLength(2);
    for (const text of ['CN-2026-000001', '>Credit</span>', '>Void</span>', note.reason, '-$10.00', 'Mar 4, 2026']) {
      expect(html).toContain(text);
    }
    expect(html).toContain('aria-label="Download CN-2026-000002 as PDF"');
  });
});

describe('ProofOfPerformance', () => {
  it("shows each CPM line's booked and delivered impressions with the remedy", () => {
    const html = render(
      <ProofOfPerformance
        invoice={{
          number: 'INV-2026-000001',
          delivery: [
            deliveryPeriodSample({
              status: 'settled',
              remedy: 'credit',
              delivered: 120_000,
              shortfall: 30_000,
              creditNote: { id: 'cn-1', number: 'CN-2026-000004', amount: 300 },
            }),
            deliveryPeriodSample({ lineId: 'l-2', productName: 'Mid-roll (CPM)', makegood: 2_000 }),
          ],
        }}
      />,
    );
    expect(html).toContain('Proof of performance');
    expect(html).toContain('March 2026');
    expect(html).toContain('150,000');
    expect(html).toContain('120,000');
    expect(html).toContain('80.0%');
    expect(html).toContain('Credit note CN-2026-000004 $300.00');
    expect(html).toContain('incl. 2,000 makegood');
    expect(html).toContain('Awaiting figures');
  });
});

describe('ExportedNote', () => {
  it('names each accounting export batch that exported the document, and nothing when none did', () => {
    const html = render(
      <ExportedNote
        exports={[
          { id: 'e-1', number: 'EXP-2026-000003', format: 'xero-invoices' },
          { id: 'e-2', number: 'EXP-2026-000004', format: 'journal' },
        ]}
      />,
    );
    expect(html).toContain('Exported: EXP-2026-000003 (Xero invoices), EXP-2026-000004 (Journal)');
    expect(render(<ExportedNote exports={[]} />)).toBe('');
  });
});
