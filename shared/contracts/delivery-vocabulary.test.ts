import { describe, expect, it } from 'vitest';
import { shareOfCents } from '../money';
import { clickThroughRate, deliveryNote, pacingText } from './delivery-vocabulary';
import { invoiceLineDetail } from './invoice-vocabulary';

describe('pacingText', () => {
  it('is delivered over booked in tenths of a percent, rounded half up', () => {
    const cases: [number, number | null, string][] = [
      [500_000, 420_000, '84.0%'],
      [500_000, 500_000, '100.0%'],
      [500_000, 520_000, '104.0%'],
      [3, 2, '66.7%'],
      [2_000, 1_999, '100.0%'], // 99.95% rounds up
      [2_000, 1_998, '99.9%'],
      [0, 10, '—'],
      [100, null, '—'],
      [1_000_000_000_000, 999_999_999_999, '100.0%'],
    ];
    for (const [booked, delivered, text] of cases) expect(pacingText(booked, delivered)).toBe(text);
  });

  it('gives the click-through rate the same way', () => {
    expect(clickThroughRate({ impressions: 40_000, clicks: 1_000 })).toBe('2.5%');
    expect(clickThroughRate({ impressions: 40_000, clicks: null })).toBe('—');
  });
});

describe('shareOfCents', () => {
  it('takes part / whole of an amount, rounding half away from zero, exactly past 2^53', () => {
    expect(shareOfCents(6_000_00, 80_000, 500_000)).toBe(960_00);
    expect(shareOfCents(4_800_00, 9_000, 150_000)).toBe(288_00);
    expect(shareOfCents(100, 1, 3)).toBe(33);
    expect(shareOfCents(100, 1, 200)).toBe(1); // 0.5 -> 1
    expect(shareOfCents(-100, 1, 200)).toBe(-1);
    // 9,000,000,000,000.00 x 999,999 / 1,000,000 = 8,999,991,000,000.00 exactly
    expect(shareOfCents(900_000_000_000_000, 999_999, 1_000_000)).toBe(899_999_100_000_000);
    expect(() => shareOfCents(100, 1, 0)).toThrow(RangeError);
  });
});

describe('deliveryNote', () => {
  const base = { shortfall: 0, makegood: 0, creditNote: null, makegoodInvoice: null };
  it('says how a period ended', () => {
    expect(deliveryNote({ ...base, status: 'awaiting', remedy: null })).toBeNull();
    expect(deliveryNote({ ...base, status: 'delivered', remedy: null })).toBe('Delivered in full');
    expect(deliveryNote({ ...base, status: 'reported', remedy: null })).toBe('Reported so far');
    expect(
      deliveryNote({
        ...base,
        status: 'settled',
        remedy: 'credit',
        shortfall: 9_000,
        creditNote: { number: 'CN-2026-000001', amount: 288 },
      }),
    ).toBe('9,000 impressions short: credit note CN-2026-000001 for $288.00');
    expect(deliveryNote({ ...base, status: 'settled', remedy: 'makegood', shortfall: 14_400 })).toBe(
      '14,400 impressions short: made good free of charge on the next invoice',
    );
    expect(
      deliveryNote({
        ...base,
        status: 'settled',
        remedy: 'makegood',
        shortfall: 14_400,
        makegood: 2_000,
        makegoodInvoice: { number: 'INV-2026-000081' },
      }),
    ).toBe(
      'Includes 2,000 makegood impressions. 14,400 impressions short: made good free of charge on invoice INV-2026-000081',
    );
  });
});

describe('invoiceLineDetail', () => {
  it('shows a CPM line its booked impressions and a makegood line its free impressions', () => {
    const line = {
      priceMetric: 'cpm' as const,
      coversStart: '2026-10-01',
      coversEnd: '2026-10-31',
      proratedDays: null,
      periodDays: null,
    };
    expect(invoiceLineDetail({ ...line, kind: 'product', impressions: 150_000 })).toMatch(
      /· 150,000 impressions booked$/,
    );
    expect(invoiceLineDetail({ ...line, kind: 'makegood', impressions: 14_400, coversStart: null })).toBe(
      '14,400 impressions free of charge, delivered in this period',
    );
  });
});
