import type { CreditNote } from '@shared/contracts/credit-notes';

/** A credit note for tests: a partial credit on an unpaid invoice, with the fields a test cares about given. */
export function creditNoteSample(fields: Partial<CreditNote> = {}): CreditNote {
  return {
    id: 'cn-1',
    number: 'CN-2026-000001',
    kind: 'partial',
    reason: 'Banner ran two days late',
    invoiceId: 'inv-1',
    invoiceNumber: 'INV-2026-000001',
    contractId: 'c-1',
    customerId: 'cu-1',
    customerName: 'Frost & Pine Outfitters',
    amount: 10,
    tax: 0,
    appliedToInvoice: 10,
    toCreditBalance: 0,
    issuedAt: '2026-03-04T10:00:00.000Z',
    exports: [],
    ...fields,
  };
}
