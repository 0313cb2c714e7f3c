import type { AvailabilityDay } from '@shared/contracts/inventory-vocabulary';
import { describe, expect, it } from 'vitest';
import { calendarMonths, capacityText, dayLabel, sellThrough, shiftDate, soldOutDays, weekdayIndex } from './calendar';

const day = (date: string, capacity: number, booked: number, held: number, heldForRenewal = 0): AvailabilityDay => ({
  date,
  capacity,
  booked,
  held,
  heldForRenewal,
  available: Math.max(0, capacity - booked - held - heldForRenewal),
});

describe('sellThrough', () => {
  it.each([
    ['nothing taken', 3, 0, 0, 'free'],
    ['part booked', 3, 1, 0, 'partly'],
    ['part held', 3, 0, 2, 'partly'],
    ['booked and held to capacity', 3, 1, 2, 'sold_out'],
    ['held to capacity', 1, 0, 1, 'sold_out'],
    ['over capacity', 2, 2, 1, 'sold_out'],
    ['no capacity left to sell', 0, 0, 0, 'free'],
    ['no capacity, something taken', 0, 1, 0, 'sold_out'],
  ] as const)('%s', (_, capacity, booked, held, expected) => {
    expect(sellThrough({ capacity, booked, held, heldForRenewal: 0 })).toBe(expected);
  });

  it.each([
    ['part held for renewal', 3, 0, 0, 1, 'partly'],
    ['held for renewal to capacity', 1, 0, 0, 1, 'sold_out'],
    ['booked, held and held for renewal to capacity', 3, 1, 1, 1, 'sold_out'],
  ] as const)('%s', (_, capacity, booked, held, heldForRenewal, expected) => {
    expect(sellThrough({ capacity, booked, held, heldForRenewal })).toBe(expected);
  });
});

describe('dayLabel', () => {
  it('says every figure of the day', () => {
    expect(dayLabel(day('2026-12-20', 3, 1, 1))).toBe('2026-12-20: 1 of 3 available, 1 booked, 1 held');
  });

  it('names the units held for renewal when there are some', () => {
    expect(dayLabel(day('2027-12-20', 3, 0, 1, 2))).toBe(
      '2027-12-20: 0 of 3 available, 0 booked, 1 held, 2 held for renewal',
    );
  });
});

describe('capacityText', () => {
  it('counts slots', () => {
    expect(capacityText(1)).toBe('1 slot a day');
    expect(capacityText(3)).toBe('3 slots a day');
    expect(capacityText(1000)).toBe('1,000 slots a day');
  });
});

describe('calendarMonths', () => {
  it('has no months for no days', () => {
    expect(calendarMonths([])).toEqual([]);
  });

  it('lays out whole months with Monday-first weeks; days outside the range have no figures', () => {
    const days = [day('2026-10-30', 2, 0, 0), day('2026-10-31', 2, 1, 0), day('2026-11-01', 2, 2, 0)];
    const months = calendarMonths(days);
    expect(months.map((m) => [m.key, m.label, m.leadingBlanks, m.cells.length])).toEqual([
      // 2026-10-01 is a Thursday, 2026-11-01 a Sunday.
      ['2026-10', 'October 2026', 3, 31],
      ['2026-11', 'November 2026', 6, 30],
    ]);
    expect(months[0].cells[0]).toEqual({ date: '2026-10-01', day: 1, figures: null });
    expect(months[0].cells[30].figures).toEqual(days[1]);
    expect(months[1].cells[0].figures).toEqual(days[2]);
    expect(months[1].cells[1].figures).toBeNull();
  });

  it('spans a year end and a leap day', () => {
    const months = calendarMonths([day('2027-12-31', 1, 0, 0), day('2028-02-29', 1, 0, 0)]);
    expect(months.map((m) => `${m.key}:${m.cells.length}`)).toEqual(['2027-12:31', '2028-01:31', '2028-02:29']);
  });
});

describe('dates', () => {
  it('numbers weekdays from Monday and shifts days across months', () => {
    expect(weekdayIndex('2026-12-21')).toBe(0);
    expect(weekdayIndex('2026-12-20')).toBe(6);
    expect(shiftDate('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDate('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDate('2026-12-01', 7)).toBe('2026-12-08');
  });

  it('counts sold-out days', () => {
    expect(soldOutDays([day('2026-12-20', 1, 1, 0), day('2026-12-21', 2, 1, 0), day('2026-12-22', 2, 0, 2)])).toBe(2);
  });
});
