import { describe, expect, it } from 'vitest';
import { attainmentTone, niceStep, percentLabel, shortMonthLabel, sumOf } from './format';
import { paramsFrom } from './params';
import { changedCells, repsOf, serverCellErrors, targetCells } from './targets-form';
import { FORECAST, PAT, RILEY, SAM } from './test-data';

describe('the forecast’s address', () => {
  it('keeps a number of months offered and a rep’s id, and nothing else', () => {
    expect(paramsFrom(new URLSearchParams(''))).toEqual({ months: 12 });
    expect(paramsFrom(new URLSearchParams(`months=24&ownerId=${SAM}`))).toEqual({ months: 24, ownerId: SAM });
    expect(paramsFrom(new URLSearchParams('months=7&ownerId=nobody'))).toEqual({ months: 12 });
    expect(paramsFrom(new URLSearchParams('months=6'))).toEqual({ months: 6 });
  });
});

describe('the forecast’s figures', () => {
  it('adds up months in exact cents and labels them', () => {
    expect(sumOf(FORECAST.totals, 'weighted')).toBe(2500.5);
    expect(
      sumOf(
        [
          { ...FORECAST.totals[0], weighted: 0.1 },
          { ...FORECAST.totals[0], weighted: 0.2 },
        ],
        'weighted',
      ),
    ).toBe(0.3);
    expect(sumOf(FORECAST.rows[1].months, 'target')).toBe(15000);
    expect(percentLabel(112.5)).toBe('112.5%');
    expect(percentLabel(80)).toBe('80%');
    expect([100, 99.9, 50, 49.9].map(attainmentTone)).toEqual(['green', 'yellow', 'yellow', 'grey']);
    expect(shortMonthLabel('2028-01')).toBe("Jan '28");
  });

  it('steps the chart’s axis in round figures', () => {
    expect([0, 1, 900, 21250.5, 40000, 1_234_567].map((max) => niceStep(max))).toEqual([
      1, 0.25, 250, 10000, 10000, 500000,
    ]);
  });
});

describe('the targets form', () => {
  const people = [
    { id: SAM, name: 'Sam Seller' },
    { id: PAT, name: 'Pat Newcomer' },
  ];

  it('offers the people who sell and anyone with a row, by name', () => {
    expect(repsOf(people, FORECAST).map((rep) => rep.name)).toEqual(['Pat Newcomer', 'Riley Rep', 'Sam Seller']);
    expect(repsOf(people, undefined).map((rep) => rep.id)).toEqual([PAT, SAM]);
  });

  it('has a cell per rep and month with the target set now, and finds those changed', () => {
    const reps = [
      { id: RILEY, name: 'Riley Rep' },
      { id: PAT, name: 'Pat Newcomer' },
    ];
    const cells = targetCells(reps, FORECAST.months, FORECAST);
    expect(cells).toEqual([
      { ownerId: RILEY, month: '2027-03', amount: '15000.00' },
      { ownerId: RILEY, month: '2027-04', amount: '' },
      { ownerId: RILEY, month: '2027-05', amount: '0.00' },
      { ownerId: PAT, month: '2027-03', amount: '' },
      { ownerId: PAT, month: '2027-04', amount: '' },
      { ownerId: PAT, month: '2027-05', amount: '' },
    ]);
    const edited = cells.map((cell, i) =>
      i === 0 ? { ...cell, amount: ' 15000.00 ' } : i === 4 ? { ...cell, amount: '1' } : cell,
    );
    expect(changedCells(edited, cells)).toEqual([4]);
  });

  it('puts the server’s messages under the cells they were sent from', () => {
    expect(
      serverCellErrors(
        { 'targets.1.ownerId': ['Choose a sales rep'], targets: ['Too many'], 'targets.9.amount': ['?'] },
        [4, 7],
      ),
    ).toEqual([[7, 'Choose a sales rep']]);
    expect(serverCellErrors(undefined, [1])).toEqual([]);
  });
});
