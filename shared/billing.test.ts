import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  type BillableContract,
  type BillableLine,
  billingSchedule,
  billLine,
  computeTax,
  daysInRange,
  draftInvoice,
  dueDate,
  inSeason,
  periodEnd,
  periodIndexOn,
  periodStart,
} from './billing';
import { dayFromNumber, dayNumber } from './calendar-date';
import { percentToBasisPoints as taxRateBasisPoints } from './rates';

// ---------------------------------------------------------------------------------------------------------
// Oracles, written without the production code: a hand-made calendar and BigInt arithmetic.
// ---------------------------------------------------------------------------------------------------------

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : DAYS[m - 1]);
const ymd = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** Steps month by month from the start date n times, then clamps the start day to that month. */
function oraclePeriodStart(start: string, n: number): string {
  let [y, m] = start.split('-').map(Number);
  const d = Number(start.slice(8, 10));
  for (let i = 0; i < n; i++) {
    m++;
    if (m === 13) {
      m = 1;
      y++;
    }
  }
  return ymd(y, m, Math.min(d, daysIn(y, m)));
}

/** Counts days forward or back one at a time. */
function oracleAddDays(date: string, days: number): string {
  let [y, m, d] = date.split('-').map(Number);
  for (let i = 0; i < Math.abs(days); i++) {
    if (days > 0) {
      d++;
      if (d > daysIn(y, m)) {
        d = 1;
        m++;
        if (m === 13) {
          m = 1;
          y++;
        }
      }
    } else {
      d--;
      if (d === 0) {
        m--;
        if (m === 0) {
          m = 12;
          y--;
        }
        d = daysIn(y, m);
      }
    }
  }
  return ymd(y, m, d);
}

/** Half away from zero for a non-negative numerator, in BigInt: floor((2n + d) / 2d). */
const roundDiv = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

function oracleTax(subtotal: number, rateBp: number, included: boolean) {
  const s = BigInt(subtotal);
  const r = BigInt(rateBp);
  if (included) {
    const tax = roundDiv(s * r, 10_000n + r);
    return { tax: Number(tax), total: subtotal };
  }
  const tax = roundDiv(s * r, 10_000n);
  return { tax: Number(tax), total: Number(s + tax) };
}

type OracleLine = { quantity: number; unit: number; discount: number; seasonal: number | null };

function oracleInvoice(
  lines: OracleLine[],
  packagePrice: number | null,
  setupFee: number,
  index: number,
  start: string,
  rateBp: number,
  included: boolean,
) {
  const month = Number(start.slice(5, 7));
  const season = month === 10 || month === 11 || month === 12;
  let subtotal = 0n;
  for (const l of lines) {
    const price = season && l.seasonal !== null ? l.seasonal : l.unit;
    const amount = BigInt(l.quantity) * BigInt(price) - BigInt(l.discount);
    subtotal += amount > 0n ? amount : 0n;
  }
  if (packagePrice !== null) subtotal += BigInt(packagePrice);
  if (index === 0) subtotal += BigInt(setupFee);
  return { subtotal: Number(subtotal), ...oracleTax(Number(subtotal), rateBp, included) };
}

// ---------------------------------------------------------------------------------------------------------

describe('calendar days as numbers', () => {
  // The oracle: the JavaScript Date's proleptic Gregorian calendar in UTC, one day at a time.
  const viaDate = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  const isoOf = (number: number) => new Date(number * 86_400_000).toISOString().slice(0, 10);

  it('numbers every day from 1899 to 2101 as the Date does, and back', () => {
    const first = viaDate('1899-01-01');
    const last = viaDate('2101-12-31');
    let mismatches = 0;
    for (let number = first; number <= last; number++) {
      const iso = isoOf(number);
      if (dayNumber(iso) !== number || dayFromNumber(number) !== iso) mismatches++;
    }
    expect(last - first + 1).toBe(203 * 365 + 49);
    expect(mismatches).toBe(0);
  });

  it('reads the day of a longer ISO text and steps across leap days and centuries (literal table)', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2026-11-28T23:59:59.000Z')).toBe(20_785);
    const table: [string, number, string][] = [
      ['2024-02-28', 1, '2024-02-29'],
      ['2024-02-28', 2, '2024-03-01'],
      ['2100-02-28', 1, '2100-03-01'],
      ['2000-02-28', 1, '2000-02-29'],
      ['2026-12-31', 1, '2027-01-01'],
      ['2027-01-01', -1, '2026-12-31'],
      ['2026-03-01', -366, '2025-02-28'],
      ['0999-12-31', 1, '1000-01-01'],
    ];
    for (const [from, days, to] of table) expect([from, days, addDays(from, days)]).toEqual([from, days, to]);
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInRange('2026-02-01', '2026-02-28')).toBe(28);
    expect(daysInRange('2026-03-02', '2026-03-01')).toBe(0);
  });
});

describe('billing periods', () => {
  it('steps calendar months from the start date, clamped to the month end (literal table)', () => {
    const table: [string, number, string][] = [
      ['2026-01-31', 0, '2026-01-31'],
      ['2026-01-31', 1, '2026-02-28'],
      ['2026-01-31', 2, '2026-03-31'],
      ['2026-01-31', 3, '2026-04-30'],
      ['2024-01-31', 1, '2024-02-29'],
      ['2024-01-31', 2, '2024-03-31'],
      ['2100-01-31', 1, '2100-02-28'],
      ['2000-01-31', 1, '2000-02-29'],
      ['2024-02-29', 12, '2025-02-28'],
      ['2024-02-29', 48, '2028-02-29'],
      ['2025-12-31', 2, '2026-02-28'],
      ['2026-03-30', 11, '2027-02-28'],
      ['2026-08-31', 1, '2026-09-30'],
      ['2026-10-15', 3, '2027-01-15'],
    ];
    for (const [start, n, expected] of table) expect(periodStart(start, n), `${start} + ${n}`).toBe(expected);
  });

  it('ends each period the day before the next starts; due 7 days after the start (literal table)', () => {
    expect(periodEnd('2026-01-31', 0)).toBe('2026-02-27');
    expect(periodEnd('2024-01-31', 0)).toBe('2024-02-28');
    expect(periodEnd('2026-01-31', 1)).toBe('2026-03-30');
    expect(periodEnd('2026-12-01', 0)).toBe('2026-12-31');
    expect(dueDate('2026-12-28')).toBe('2027-01-04');
    expect(dueDate('2024-02-25')).toBe('2024-03-03');
    expect(dueDate('2025-02-25')).toBe('2025-03-04');
  });

  const date = fc
    .record({
      y: fc.integer({ min: 1990, max: 2199 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
    })
    .map(({ y, m, d }) => ymd(y, m, Math.min(d, daysIn(y, m))));

  it('matches the month-by-month oracle for any start date and index', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 240 }), (start, n) => {
        expect(periodStart(start, n)).toBe(oraclePeriodStart(start, n));
        expect(periodEnd(start, n)).toBe(oracleAddDays(oraclePeriodStart(start, n + 1), -1));
        expect(dueDate(periodStart(start, n))).toBe(oracleAddDays(oraclePeriodStart(start, n), 7));
      }),
    );
  });

  it('adds days like counting them one at a time', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -800, max: 800 }), (d, n) => {
        expect(addDays(d, n)).toBe(oracleAddDays(d, n));
      }),
    );
  });

  it('finds the period that contains a day', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 3000 }), (start, days) => {
        const day = oracleAddDays(start, days);
        const index = periodIndexOn(start, day);
        expect(oraclePeriodStart(start, index) <= day).toBe(true);
        expect(oraclePeriodStart(start, index + 1) > day).toBe(true);
      }),
    );
    expect(periodIndexOn('2026-03-10', '2026-03-09')).toBe(-1);
    expect(periodIndexOn('2026-01-31', '2026-02-27')).toBe(0);
    expect(periodIndexOn('2026-01-31', '2026-02-28')).toBe(1);
  });

  it('is in season for periods starting October to December', () => {
    expect(['2026-09-30', '2026-10-01', '2026-11-15', '2026-12-31', '2027-01-01'].map(inSeason)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('tax', () => {
  it('turns a percent with two decimals into basis points', () => {
    expect([0, 8.25, 7.5, 100, 0.01, 19.99].map(taxRateBasisPoints)).toEqual([0, 825, 750, 10_000, 1, 1999]);
  });

  it('rounds half away from zero once (literal table)', () => {
    // 8.25% of $10.10 = 83.325 cents -> 83; of $10.30 = 84.975 -> 85; 10% of $0.05 = 0.5 -> 1
    expect(computeTax(1010, { rateBp: 825, included: false })).toEqual({ taxCents: 83, totalCents: 1093 });
    expect(computeTax(1030, { rateBp: 825, included: false })).toEqual({ taxCents: 85, totalCents: 1115 });
    expect(computeTax(5, { rateBp: 1000, included: false })).toEqual({ taxCents: 1, totalCents: 6 });
    // Included: $110.00 at 10% holds $10.00 of tax; $1.05 at 5% holds 5 cents.
    expect(computeTax(110_00, { rateBp: 1000, included: true })).toEqual({ taxCents: 10_00, totalCents: 110_00 });
    expect(computeTax(105, { rateBp: 500, included: true })).toEqual({ taxCents: 5, totalCents: 105 });
    expect(computeTax(0, { rateBp: 2500, included: true })).toEqual({ taxCents: 0, totalCents: 0 });
  });

  it('matches the BigInt oracle', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000_000_00 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        (subtotal, rateBp, included) => {
          const { tax, total } = oracleTax(subtotal, rateBp, included);
          expect(computeTax(subtotal, { rateBp, included })).toEqual({ taxCents: tax, totalCents: total });
        },
      ),
    );
  });
});

describe('invoice figures', () => {
  const oracleLine = fc
    .record({
      quantity: fc.integer({ min: 1, max: 500 }),
      unit: fc.integer({ min: 0, max: 5_000_00 }),
      discount: fc.integer({ min: 0, max: 20_000_00 }),
      seasonal: fc.option(fc.integer({ min: 0, max: 5_000_00 }), { nil: null }),
    })
    // The contract form refuses a discount above the line's regular amount.
    .filter((l) => l.discount <= l.quantity * l.unit);

  it('bills lines, package, setup fee and tax like the oracle', () => {
    fc.assert(
      fc.property(
        fc.array(oracleLine, { maxLength: 8 }),
        fc.option(fc.integer({ min: 0, max: 20_000_00 }), { nil: null }),
        fc.integer({ min: 0, max: 5_000_00 }),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom('2026-01-31', '2025-10-01', '2024-02-29', '2026-09-30', '2026-12-15'),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 10_000 }),
        (lines, packagePrice, setupFee, index, startDate, rateBp, included, agencyBp) => {
          const contract: BillableContract = {
            lines: lines.map((l, i) => ({
              description: `Line ${i}`,
              productId: null,
              quantity: l.quantity,
              unitPriceCents: l.unit,
              discountCents: l.discount,
              seasonalPriceCents: l.seasonal,
              priceMetric: 'monthly' as const,
              flightStart: startDate,
              flightEnd: null,
            })),
            packageName: packagePrice === null ? null : 'Holiday bundle',
            packagePriceCents: packagePrice ?? 0,
            setupFeeCents: setupFee,
          };
          const start = oraclePeriodStart(startDate, index);
          const end = oracleAddDays(oraclePeriodStart(startDate, index + 1), -1);
          const draft = draftInvoice(contract, { index, start, end }, { rateBp, included });
          const expected = oracleInvoice(lines, packagePrice, setupFee, index, start, rateBp, included);
          expect(draft.subtotalCents).toBe(expected.subtotal);
          expect(draft.taxCents).toBe(expected.tax);
          expect(draft.totalCents).toBe(expected.total);
          expect(draft.lines.reduce((sum, l) => sum + l.amountCents, 0)).toBe(draft.subtotalCents);
          expect(draft.lines.some((l) => l.kind === 'setup_fee')).toBe(index === 0 && setupFee > 0);
          expect(draft.lines.filter((l) => l.kind === 'package').every((l) => !l.seasonal)).toBe(true);
          expect([draft.agencyCommissionCents, draft.agencyBillingMode]).toEqual([0, null]);

          // Billed to an agency (product.md section 20): the commission is the rate x the media lines (all but
          // the setup fee), half away from zero; net: a negative line, tax and the total on the net; gross: the
          // invoice without an agency.
          const setupOnInvoice = index === 0 ? setupFee : 0;
          const commission = Number(roundDiv(BigInt(expected.subtotal - setupOnInvoice) * BigInt(agencyBp), 10_000n));
          const net = draftInvoice(
            { ...contract, agency: { commissionBp: agencyBp, billingMode: 'net' } },
            { index, start, end },
            { rateBp, included },
          );
          const onNet = oracleTax(expected.subtotal - commission, rateBp, included);
          expect(net.subtotalCents).toBe(expected.subtotal);
          expect(net.agencyCommissionCents).toBe(commission);
          expect(net.agencyBillingMode).toBe('net');
          expect(net.taxCents).toBe(onNet.tax);
          expect(net.totalCents).toBe(onNet.total);
          if (!included) expect(net.totalCents).toBe(expected.subtotal - commission + net.taxCents);
          expect(net.lines.slice(0, -1)).toEqual(draft.lines);
          expect(net.lines.at(-1)).toMatchObject({
            kind: 'agency_commission',
            description: `Agency commission ${agencyBp / 100}%`,
            productId: null,
            amountCents: -commission,
          });
          const gross = draftInvoice(
            { ...contract, agency: { commissionBp: agencyBp, billingMode: 'gross' } },
            { index, start, end },
            { rateBp, included },
          );
          expect(gross).toEqual({ ...draft, agencyCommissionCents: commission, agencyBillingMode: 'gross' });
        },
      ),
    );
  });

  describe('billed to an agency (product.md section 20, worked by hand)', () => {
    // $1,000.00 of media a month and a $200.00 setup fee on the first invoice; the agency takes 15% of the media.
    const contract = (billingMode: 'net' | 'gross', commissionBp = 1500): BillableContract => ({
      lines: [
        {
          description: 'Pre-roll',
          productId: 'p1',
          priceMetric: 'monthly',
          quantity: 1,
          unitPriceCents: 1_000_00,
          discountCents: 0,
          seasonalPriceCents: null,
          flightStart: '2026-03-01',
          flightEnd: null,
        },
      ],
      packageName: null,
      packagePriceCents: 0,
      setupFeeCents: 200_00,
      agency: { commissionBp, billingMode },
    });
    const first = { index: 0, start: '2026-03-01', end: '2026-03-31' };
    const figures = (d: ReturnType<typeof draftInvoice>) => [
      d.subtotalCents,
      d.agencyCommissionCents,
      d.taxCents,
      d.totalCents,
    ];
    const lines = (d: ReturnType<typeof draftInvoice>) => d.lines.map((l) => [l.kind, l.description, l.amountCents]);

    it('net, tax added or included: a negative commission line, tax and total on the net', () => {
      // Commission 15% x $1,000.00 = $150.00 (not on the $200.00 setup fee); net $1,050.00.
      // Added: 8.25% x $1,050.00 = $86.625 -> $86.63, total $1,136.63.
      const added = draftInvoice(contract('net'), first, { rateBp: 825, included: false });
      expect(lines(added)).toEqual([
        ['product', 'Pre-roll', 1_000_00],
        ['setup_fee', 'Setup fee (one-time)', 200_00],
        ['agency_commission', 'Agency commission 15%', -150_00],
      ]);
      expect(added.lines[2]).toMatchObject({
        productId: null,
        priceMetric: null,
        quantity: 1,
        unitPriceCents: -150_00,
      });
      expect(figures(added)).toEqual([1_200_00, 150_00, 86_63, 1_136_63]);
      expect(added.agencyBillingMode).toBe('net');
      // Included: $1,050.00 x 825 / 10825 = $80.023 -> $80.02, total the net $1,050.00.
      const included = draftInvoice(contract('net'), first, { rateBp: 825, included: true });
      expect(lines(included)).toEqual(lines(added));
      expect(figures(included)).toEqual([1_200_00, 150_00, 80_02, 1_050_00]);
    });

    it('gross, tax added or included: the invoice without an agency, the commission owed once paid', () => {
      // Added: 8.25% x $1,200.00 = $99.00; included: $1,200.00 x 825 / 10825 = $91.454 -> $91.45.
      const added = draftInvoice(contract('gross'), first, { rateBp: 825, included: false });
      expect(lines(added)).toEqual([
        ['product', 'Pre-roll', 1_000_00],
        ['setup_fee', 'Setup fee (one-time)', 200_00],
      ]);
      expect(figures(added)).toEqual([1_200_00, 150_00, 99_00, 1_299_00]);
      expect(added.agencyBillingMode).toBe('gross');
      const included = draftInvoice(contract('gross'), first, { rateBp: 825, included: true });
      expect(figures(included)).toEqual([1_200_00, 150_00, 91_45, 1_200_00]);
    });

    it('after the first invoice: no setup fee, the commission on the whole subtotal', () => {
      const second = draftInvoice(
        contract('net'),
        { index: 1, start: '2026-04-01', end: '2026-04-30' },
        { rateBp: 0, included: false },
      );
      expect(lines(second)).toEqual([
        ['product', 'Pre-roll', 1_000_00],
        ['agency_commission', 'Agency commission 15%', -150_00],
      ]);
      expect(figures(second)).toEqual([1_000_00, 150_00, 0, 850_00]);
    });

    it('at the seasonal price in season, with a package, at 12.5%', () => {
      const seasonal: BillableContract = {
        lines: [
          {
            description: 'Holiday pre-roll',
            productId: 'p1',
            priceMetric: 'monthly',
            quantity: 2,
            unitPriceCents: 100_00,
            discountCents: 0,
            seasonalPriceCents: 150_00,
            flightStart: '2026-09-01',
            flightEnd: null,
          },
        ],
        packageName: 'Gold',
        packagePriceCents: 300_00,
        setupFeeCents: 50_00,
        agency: { commissionBp: 1250, billingMode: 'net' },
      };
      // October: 2 x $150.00 + $300.00 package = $600.00; 12.5% = $75.00; net $525.00; 10% tax $52.50.
      const october = draftInvoice(
        seasonal,
        { index: 1, start: '2026-10-01', end: '2026-10-31' },
        { rateBp: 1000, included: false },
      );
      expect(lines(october)).toEqual([
        ['product', 'Holiday pre-roll', 300_00],
        ['package', 'Package: Gold', 300_00],
        ['agency_commission', 'Agency commission 12.5%', -75_00],
      ]);
      expect(figures(october)).toEqual([600_00, 75_00, 52_50, 577_50]);
      expect(october.seasonalPricing).toBe(true);
      // September (out of season, first invoice): 2 x $100.00 + $300.00 = $500.00 of media, 12.5% = $62.50; the
      // $50.00 setup fee earns nothing; net $487.50, tax $48.75.
      const september = draftInvoice(
        seasonal,
        { index: 0, start: '2026-09-01', end: '2026-09-30' },
        { rateBp: 1000, included: false },
      );
      expect(figures(september)).toEqual([550_00, 62_50, 48_75, 536_25]);
    });

    it('rounds the commission half away from zero once (literal table)', () => {
      const one = (unitPriceCents: number, billingMode: 'net' | 'gross' = 'net') =>
        draftInvoice(
          {
            ...contract(billingMode),
            setupFeeCents: 0,
            lines: [{ ...contract(billingMode).lines[0], unitPriceCents }],
          },
          first,
          { rateBp: 825, included: false },
        );
      // [media, 15% by hand, net, 8.25% tax of the net, total]
      const table: [number, number, number, number, number][] = [
        // 33333 x 1500 / 10000 = 4999.95 -> 5000; tax 28333 x 0.0825 = 2337.47 -> 2337
        [333_33, 50_00, 283_33, 23_37, 306_70],
        // 33303 x 0.15 = 4995.45 -> 4995; tax 28308 x 0.0825 = 2335.41 -> 2335
        [333_03, 49_95, 283_08, 23_35, 306_43],
        // 30 x 0.15 = 4.5 -> 5 (half away from zero); tax 25 x 0.0825 = 2.06 -> 2
        [30, 5, 25, 2, 27],
        // 10 x 0.15 = 1.5 -> 2; tax 8 x 0.0825 = 0.66 -> 1
        [10, 2, 8, 1, 9],
      ];
      for (const [media, commission, net, tax, total] of table) {
        const draft = one(media);
        expect([draft.subtotalCents, draft.agencyCommissionCents, draft.taxCents, draft.totalCents]).toEqual([
          media,
          commission,
          tax,
          total,
        ]);
        expect(draft.subtotalCents - draft.agencyCommissionCents).toBe(net);
        expect(one(media, 'gross').agencyCommissionCents).toBe(commission);
      }
    });

    it('previews the schedule with the commission, its total on the net', () => {
      const entries = billingSchedule(
        { ...contract('net'), startDate: '2026-03-01' },
        { fromIndex: 0, count: 2, stopBefore: null, tax: { rateBp: 825, included: false } },
      );
      expect(entries.map((e) => [e.subtotalCents, e.agencyCommissionCents, e.taxCents, e.totalCents])).toEqual([
        [1_200_00, 150_00, 86_63, 1_136_63],
        // $850.00 x 8.25% = $70.125 -> $70.13
        [1_000_00, 150_00, 70_13, 920_13],
      ]);
    });
  });

  it('uses the seasonal price in season only, and never for the package (worked example)', () => {
    const contract: BillableContract = {
      lines: [
        {
          description: 'Pre-roll',
          productId: 'p1',
          quantity: 2,
          unitPriceCents: 100_00,
          discountCents: 10_00,
          seasonalPriceCents: 150_00,
          priceMetric: 'monthly',
          flightStart: '2026-09-30',
          flightEnd: null,
        },
        {
          description: 'Banner',
          productId: 'p2',
          quantity: 1,
          unitPriceCents: 50_00,
          discountCents: 0,
          seasonalPriceCents: null,
          priceMetric: 'monthly',
          flightStart: '2026-09-30',
          flightEnd: null,
        },
      ],
      packageName: 'Gold',
      packagePriceCents: 300_00,
      setupFeeCents: 75_00,
    };
    const tax = { rateBp: 825, included: false };
    const september = draftInvoice(contract, { index: 0, start: '2026-09-30', end: '2026-10-30' }, tax);
    expect(september.lines.map((l) => [l.kind, l.unitPriceCents, l.amountCents, l.seasonal])).toEqual([
      ['product', 100_00, 190_00, false],
      ['product', 50_00, 50_00, false],
      ['package', 300_00, 300_00, false],
      ['setup_fee', 75_00, 75_00, false],
    ]);
    // 615.00 x 8.25% = 50.7375 -> 50.74
    expect([september.subtotalCents, september.taxCents, september.totalCents]).toEqual([615_00, 50_74, 665_74]);
    const october = draftInvoice(contract, { index: 1, start: '2026-10-31', end: '2026-11-29' }, tax);
    expect(october.lines.map((l) => [l.kind, l.unitPriceCents, l.amountCents, l.seasonal])).toEqual([
      ['product', 150_00, 290_00, true],
      ['product', 50_00, 50_00, false],
      ['package', 300_00, 300_00, false],
    ]);
    // 640.00 x 8.25% = 52.80
    expect([october.subtotalCents, october.taxCents, october.totalCents]).toEqual([640_00, 52_80, 692_80]);
    expect(october.seasonalPricing).toBe(true);
  });

  it('previews a schedule that stops at the term end', () => {
    const contract = {
      startDate: '2026-08-31',
      lines: [
        {
          description: 'Ad',
          productId: null,
          quantity: 1,
          unitPriceCents: 100_00,
          discountCents: 0,
          seasonalPriceCents: 200_00,
          priceMetric: 'monthly' as const,
          flightStart: '2026-08-31',
          flightEnd: null,
        },
      ],
      packageName: null,
      packagePriceCents: 0,
      setupFeeCents: 10_00,
    };
    const schedule = billingSchedule(contract, {
      fromIndex: 0,
      count: 12,
      stopBefore: '2027-02-28',
      tax: { rateBp: 0, included: false },
    });
    expect(schedule.map((e) => [e.start, e.totalCents, e.inSeason])).toEqual([
      ['2026-08-31', 110_00, false],
      ['2026-09-30', 100_00, false],
      ['2026-10-31', 200_00, true],
      ['2026-11-30', 200_00, true],
      ['2026-12-31', 200_00, true],
      ['2027-01-31', 100_00, false],
    ]);
    const open = billingSchedule(contract, {
      fromIndex: 3,
      count: 12,
      stopBefore: null,
      tax: { rateBp: 0, included: false },
    });
    expect(open).toHaveLength(12);
    expect(open[0].start).toBe('2026-11-30');
  });

  it('lists a period with nothing to bill at $0.00 and puts pending credits on the next one that bills', () => {
    // A $300.00 line that stops on January 31 and starts again on March 1 (a second line): February bills
    // nothing, so a pending credit of $50.00 waits for March; a pending charge would go on February itself.
    const line = (flightStart: string, flightEnd: string | null) => ({
      description: 'Banner',
      productId: null,
      priceMetric: 'monthly' as const,
      quantity: 1,
      unitPriceCents: 300_00,
      discountCents: 0,
      seasonalPriceCents: null,
      flightStart,
      flightEnd,
    });
    const contract = {
      startDate: '2027-01-01',
      lines: [line('2027-01-01', '2027-01-31'), line('2027-03-01', null)],
      packageName: null,
      packagePriceCents: 0,
      setupFeeCents: 0,
    };
    const adjustment = (amountCents: number) => ({
      description: 'Banner: ended',
      productId: null,
      coversStart: '2026-12-20',
      coversEnd: '2026-12-31',
      amountCents,
    });
    const schedule = (amountCents: number) =>
      billingSchedule(contract, {
        fromIndex: 1,
        count: 3,
        stopBefore: null,
        tax: { rateBp: 0, included: false },
        adjustments: { items: [adjustment(amountCents)], atIndex: 1 },
      }).map((e) => [e.start, e.totalCents, e.adjustments.length]);
    expect(schedule(-50_00)).toEqual([
      ['2027-02-01', 0, 0],
      ['2027-03-01', 250_00, 1],
      ['2027-04-01', 300_00, 0],
    ]);
    expect(schedule(20_00)).toEqual([
      ['2027-02-01', 20_00, 1],
      ['2027-03-01', 300_00, 0],
      ['2027-04-01', 300_00, 0],
    ]);
  });

  it('keeps a credit back when it would bring the invoice to $0.00 or below', () => {
    const contract = {
      startDate: '2027-01-01',
      lines: [
        {
          description: 'Banner',
          productId: null,
          priceMetric: 'monthly' as const,
          quantity: 1,
          unitPriceCents: 100_00,
          discountCents: 0,
          seasonalPriceCents: null,
          flightStart: '2027-01-01',
          flightEnd: null,
        },
      ],
      packageName: null,
      packagePriceCents: 0,
      setupFeeCents: 0,
    };
    const credit = (amountCents: number) => ({
      description: 'Banner: ended',
      productId: null,
      coversStart: '2026-12-01',
      coversEnd: '2026-12-31',
      amountCents,
    });
    const period = { index: 0, start: '2027-01-01', end: '2027-01-31' };
    const tax = { rateBp: 0, included: false };
    expect(draftInvoice(contract, period, tax, [credit(-99_99)]).totalCents).toBe(1);
    expect(draftInvoice(contract, period, tax, [credit(-100_00)]).totalCents).toBe(100_00);
  });
});

describe('metrics and flights (product.md section 11)', () => {
  const line = (over: Partial<BillableLine>): BillableLine => ({
    description: 'Line',
    productId: null,
    priceMetric: 'monthly',
    quantity: 1,
    unitPriceCents: 300_00,
    discountCents: 0,
    seasonalPriceCents: null,
    flightStart: '2026-01-15',
    flightEnd: null,
    ...over,
  });
  // A contract starting 2026-01-15: its first periods, written out by hand.
  const P0 = { start: '2026-01-15', end: '2026-02-14' }; // 31 days
  const P1 = { start: '2026-02-15', end: '2026-03-14' }; // 28 days
  const P2 = { start: '2026-03-15', end: '2026-04-14' }; // 31 days
  const P3 = { start: '2026-04-15', end: '2026-05-14' };
  const billed = (l: BillableLine, period: { start: string; end: string }) => {
    const result = billLine(l, period);
    return result && [result.amountCents, result.coversStart, result.coversEnd, result.proratedDays, result.periodDays];
  };

  it('counts the days of a range, both ends included', () => {
    expect(daysInRange('2026-01-15', '2026-02-14')).toBe(31);
    expect(daysInRange('2026-02-15', '2026-03-14')).toBe(28);
    expect(daysInRange('2024-02-01', '2024-02-29')).toBe(29);
    expect(daysInRange('2026-03-01', '2026-03-01')).toBe(1);
    expect(daysInRange('2026-03-02', '2026-03-01')).toBe(0);
  });

  it('prorates a monthly line by the days its flight covers, rounding half away from zero', () => {
    const monthly = line({ flightStart: '2026-02-01', flightEnd: '2026-03-31' });
    // 300.00 x 14/31 = 135.483... ; 300.00 x 17/31 = 164.516...
    expect(billed(monthly, P0)).toEqual([135_48, '2026-02-01', '2026-02-14', 14, 31]);
    expect(billed(monthly, P1)).toEqual([300_00, '2026-02-15', '2026-03-14', null, null]);
    expect(billed(monthly, P2)).toEqual([164_52, '2026-03-15', '2026-03-31', 17, 31]);
    expect(billed(monthly, P3)).toBeNull();
    // 0.03 x 15/30 = 0.015 -> 0.02 ; 1.01 x 15/30 = 0.505 -> 0.51
    const april = { start: '2026-04-01', end: '2026-04-30' };
    expect(billed(line({ unitPriceCents: 3, flightStart: '2026-04-16' }), april)?.[0]).toBe(2);
    expect(billed(line({ unitPriceCents: 1_01, flightStart: '2026-04-16' }), april)?.[0]).toBe(51);
  });

  it('prorates after the discount, at the in-season price in season', () => {
    // (160.00 x 2 - 20.00) x 10/31 = 96.774... -> 96.77
    const october = { start: '2026-10-01', end: '2026-10-31' };
    const seasonal = line({
      quantity: 2,
      unitPriceCents: 100_00,
      seasonalPriceCents: 160_00,
      discountCents: 20_00,
      flightStart: '2026-10-01',
      flightEnd: '2026-10-10',
    });
    expect(billLine(seasonal, october)).toMatchObject({ unitPriceCents: 160_00, amountCents: 96_77, seasonal: true });
  });

  it('bills a flat line once, in full, in the period its flight starts', () => {
    const flat = line({
      priceMetric: 'flat',
      unitPriceCents: 500_00,
      flightStart: '2026-02-20',
      flightEnd: '2026-03-05',
    });
    expect(billed(flat, P0)).toBeNull();
    expect(billed(flat, P1)).toEqual([500_00, '2026-02-20', '2026-03-05', null, null]);
    expect(billed(flat, P2)).toBeNull();
    // On the period's last day still counts; the day after is the next period's.
    expect(billed(line({ priceMetric: 'flat', flightStart: '2026-02-14' }), P0)?.[0]).toBe(300_00);
    expect(billed(line({ priceMetric: 'flat', flightStart: '2026-02-15' }), P0)).toBeNull();
  });

  it('bills a CPM line at its booked volume every period: thousands x rate per 1,000', () => {
    const cpm = line({ priceMetric: 'cpm', quantity: 100, unitPriceCents: 8_00 });
    expect([P0, P1, P2, P3].map((p) => billLine(cpm, p)?.amountCents)).toEqual([800_00, 800_00, 800_00, 800_00]);
  });

  it('puts it together on an invoice (worked example)', () => {
    const contract: BillableContract = {
      lines: [
        line({ description: 'Pre-roll', priceMetric: 'cpm', quantity: 50, unitPriceCents: 10_00 }),
        line({
          description: 'Holiday special',
          priceMetric: 'flat',
          unitPriceCents: 500_00,
          flightStart: '2026-02-20',
        }),
        line({ description: 'Banner', unitPriceCents: 62_00, flightStart: '2026-03-01' }),
      ],
      packageName: null,
      packagePriceCents: 0,
      setupFeeCents: 40_00,
    };
    const tax = { rateBp: 1000, included: false };
    const invoice = (index: number, period: { start: string; end: string }) => {
      const draft = draftInvoice(contract, { index, ...period }, tax);
      return [draft.lines.map((l) => [l.description, l.amountCents]), draft.subtotalCents, draft.totalCents];
    };
    expect(invoice(0, P0)).toEqual([
      [
        ['Pre-roll', 500_00],
        ['Setup fee (one-time)', 40_00],
      ],
      540_00,
      594_00,
    ]);
    // Banner: 62.00 x 14/28 = 31.00
    expect(invoice(1, P1)).toEqual([
      [
        ['Pre-roll', 500_00],
        ['Holiday special', 500_00],
        ['Banner', 31_00],
      ],
      1_031_00,
      1_134_10,
    ]);
    expect(invoice(2, P2)).toEqual([
      [
        ['Pre-roll', 500_00],
        ['Banner', 62_00],
      ],
      562_00,
      618_20,
    ]);
  });
});
