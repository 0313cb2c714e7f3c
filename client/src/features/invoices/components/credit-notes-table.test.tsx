import type { CreditNote } from '@shared/contracts/credit-notes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { creditNoteSample } from './credit-note-sample';
import { CreditNotesTable } from './credit-notes-table';

const note = creditNoteSample({
  number: 'CN-2026-000003',
  kind: 'delivery',
  reason: 'Delivered 80,000 of the 100,000 impressions sold',
  invoiceNumber: 'INV-2026-000011',
  customerName: null,
  amount: 480,
  appliedToInvoice: 480,
  issuedAt: '2026-04-02',
});

const render = (rows: CreditNote[], loading = false) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <Router ssrPath="/invoices">
        <CreditNotesTable
          rows={rows}
          loading={loading}
          busy={false}
          empty={<p>No credit notes found</p>}
          onViewInvoice={() => {}}
        />
      </Router>
    </QueryClientProvider>,
  );

describe('CreditNotesTable', () => {
  it('has a card per credit note with its invoice, kind, reason, amount, date and PDF', () => {
    const html = render([note]);
    // Rendered without a window, the screen counts as a phone: a card per credit note, its number as the title,
    // the amount and kind on top, the PDF at the foot, the other columns labelled.
    for (const header of ['Invoice', 'Customer', 'Reason', 'Issued']) {
      expect(html).toContain(`<dt class="text-muted-foreground">${header}</dt>`);
    }
    expect(html).toMatch(/data-card-role="amount"><div[^>]*>\$480.00<\/div><div[^>]*>Amount<\/div>/);
    expect(html).toMatch(/data-card-role="status"><span[^>]*>Under-delivery<\/span>/);
    expect(html).toMatch(/data-card-role="actions">.*aria-label="Download CN-2026-000003 as PDF"/);
    for (const text of [
      'data-credit-note-number="CN-2026-000003"',
      'aria-label="View invoice INV-2026-000011"',
      'href="/customers/cu-1"',
      'Unknown Customer',
      '>Under-delivery</span>',
      `title="${note.reason}"`,
      '$480.00',
      'Apr 2, 2026',
      'aria-label="Download CN-2026-000003 as PDF"',
    ]) {
      expect(html).toContain(text);
    }
  });

  it('shows the empty state in place of the table, and placeholder rows while loading', () => {
    const empty = render([]);
    expect(empty).toContain('No credit notes found');
    expect(empty).not.toContain('<table');
    const loading = render([], true);
    expect(loading).toContain('aria-busy="true"');
    expect(loading).not.toContain('No credit notes found');
  });
});
