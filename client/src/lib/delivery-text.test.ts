import { describe, expect, it } from 'vitest';
import { deliveryPeriodSample } from './delivery-sample';
import { deliveryOutcome, formatImpressions, pacingIsLow, periodDates } from './delivery-text';

const period = deliveryPeriodSample;

describe('deliveryOutcome', () => {
  it.each([
    ['a running period', period({ ended: false }), 'Period running until Mar 31, 2026'],
    ['an ended period without figures', period(), 'Awaiting figures'],
    ['a period delivered in full', period({ status: 'delivered', delivered: 160_000 }), 'Delivered in full'],
    [
      'a running period an ad server reported on',
      period({ ended: false, status: 'reported', delivered: 40_000 }),
      'Reported so far',
    ],
    [
      'an ended period whose figures are not final',
      period({ status: 'reported', delivered: 120_000 }),
      'Reported so far',
    ],
    [
      'a credit',
      period({
        status: 'settled',
        remedy: 'credit',
        delivered: 120_000,
        shortfall: 30_000,
        creditNote: { id: 'cn-1', number: 'CN-2026-000004', amount: 300 },
      }),
      'Credit note CN-2026-000004 $300.00',
    ],
    [
      'a credit that came to nothing',
      period({ status: 'settled', remedy: 'credit', delivered: 149_999, shortfall: 1 }),
      'Settled: nothing to credit',
    ],
    [
      'a makegood on its invoice',
      period({
        status: 'settled',
        remedy: 'makegood',
        delivered: 100_000,
        shortfall: 50_000,
        makegoodInvoice: { id: 'inv-2', number: 'INV-2026-000009' },
      }),
      'Makegood: 50,000 impressions on INV-2026-000009',
    ],
    [
      'a makegood waiting for the next invoice',
      period({ status: 'settled', remedy: 'makegood', delivered: 100_000, shortfall: 50_000 }),
      'Makegood: 50,000 impressions on the next invoice',
    ],
    ['figures settled before reconciliation', period({ status: 'settled', remedy: 'none', delivered: 10 }), 'Settled'],
  ])('%s', (_name, value, expected) => {
    expect(deliveryOutcome(value)).toBe(expected);
  });
});

describe('pacingIsLow', () => {
  it('is low below 90% of booked only, and never without figures or booking', () => {
    expect(pacingIsLow({ booked: 1000, delivered: 899 })).toBe(true);
    expect(pacingIsLow({ booked: 1000, delivered: 900 })).toBe(false);
    expect(pacingIsLow({ booked: 1000, delivered: 1500 })).toBe(false);
    expect(pacingIsLow({ booked: 1000, delivered: null })).toBe(false);
    expect(pacingIsLow({ booked: 0, delivered: 0 })).toBe(false);
  });
});

describe('formatting', () => {
  it('groups impressions and names the period days', () => {
    expect(formatImpressions(1_250_000)).toBe('1,250,000');
    expect(periodDates(period())).toBe('Mar 1, 2026 – Mar 31, 2026');
  });
});
