import { creditNoteSchema } from '@shared/contracts/credit-notes';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Dialog } from '@/components/ui/dialog';
import { CreditNoteForm } from './issue-credit-note-dialog';

const invoice = {
  id: 'inv-1',
  number: 'INV-2026-000007',
  customerName: 'Frost & Pine Outfitters',
  periodStart: '2026-03-01',
  periodEnd: '2026-03-31',
  amountDue: 250,
  creditable: 390.5,
};

const render = (creditable: number) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <Dialog open>
        <CreditNoteForm invoice={{ ...invoice, creditable }} onDone={() => {}} />
      </Dialog>
    </QueryClientProvider>,
  );

describe('CreditNoteForm', () => {
  it('names the invoice and what is due, and hints at most what remains to credit', () => {
    const html = render(390.5);
    expect(html).toContain('Issue a credit note on INV-2026-000007');
    expect(html).toContain('$250.00 due');
    expect(html).toContain('At most $390.50');
    // The hint describes the amount field for screen readers.
    expect(html).toMatch(
      />Amount \(\$\)<\/label><input[^>]*inputMode="decimal"[^>]*aria-describedby="([^"]+)-hint" name="amount"/,
    );
    expect(html).toContain('>Reason</label><textarea');
    expect(html).toContain('>Issue Credit Note</button>');
  });
});

describe('the shared rule the form validates with', () => {
  // The dialog passes what remains to credit in cents; the same schema (without it) is the route's body.
  const schema = creditNoteSchema({ creditableCents: 39050 });
  const messages = (input: object) =>
    schema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

  it('takes an amount up to what remains to credit, in cents, with a reason', () => {
    expect(schema.parse({ amount: '390.50', reason: ' Late ' })).toEqual({ amount: 39050, reason: 'Late' });
  });

  it('refuses more than remains to credit, nothing, and no reason', () => {
    expect(messages({ amount: '390.51', reason: 'Late' })).toEqual([
      'amount: Amount cannot exceed what remains to credit on this invoice ($390.50)',
    ]);
    expect(messages({ amount: '', reason: '' })).toEqual([
      'amount: Amount is required',
      'reason: Please give a reason for the credit',
    ]);
    expect(messages({ amount: '0', reason: 'Late' })).toEqual(['amount: Amount must be greater than zero']);
  });
});
