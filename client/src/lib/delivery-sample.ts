import type { DeliveryPeriod } from '@shared/contracts/delivery';

/** A CPM period for tests: an ended March awaiting its figures, with the fields a test cares about given. */
export function deliveryPeriodSample(fields: Partial<DeliveryPeriod> = {}): DeliveryPeriod {
  return {
    contractId: 'c-1',
    contractTitle: null,
    lineId: 'l-1',
    productName: 'Pre-roll Impressions (15s, CPM)',
    month: '2026-03',
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    invoiceId: 'inv-1',
    invoiceNumber: 'INV-2026-000001',
    booked: 150_000,
    makegood: 0,
    delivered: null,
    clicks: null,
    ended: true,
    final: false,
    status: 'awaiting',
    remedy: null,
    shortfall: 0,
    creditNote: null,
    makegoodInvoice: null,
    recordedAt: null,
    recordedByName: null,
    ...fields,
  };
}
