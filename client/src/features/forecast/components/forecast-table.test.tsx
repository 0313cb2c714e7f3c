// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FORECAST } from '../lib/test-data';
import { ForecastChart } from './forecast-chart';
import { ForecastTable } from './forecast-table';

afterEach(cleanup);

/** What a screen reader reads of an element: its text without the parts hidden from it. */
function spoken(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden]')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}
/** What the eye reads: the text without the screen readers' words. */
function seen(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('.sr-only')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}
/** A cell's lines (booked; weighted and best case; the target's badge), as seen and as read out. */
const lines = (cell: Element) => [...cell.children].map((line) => [seen(line), spoken(line)]);

describe('ForecastTable', () => {
  it('has a column per month and a row per rep, then All reps', () => {
    render(<ForecastTable forecast={FORECAST} />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Rep', 'Mar 2027', 'Apr 2027', 'May 2027']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((th) => th.textContent),
    ).toEqual(['Riley Rep', 'Sam Seller', 'All reps']);
    expect(screen.getByRole('region', { name: 'Forecast by rep and month (scrolls sideways)' }).tabIndex).toBe(0);
  });

  it('shows booked, weighted, best case and the attainment of the target in each cell', () => {
    render(<ForecastTable forecast={FORECAST} />);
    const [riley, sam] = screen.getAllByTestId('forecast-row');
    const rileyCells = within(riley).getAllByTestId('forecast-cell');
    expect(lines(rileyCells[0])).toEqual([
      ['$12,000.00', 'Booked $12,000.00'],
      ['W $1,250.50 · BC $17,000.00', 'Weighted $1,250.50 · Best case $17,000.00'],
      ['80% of $15,000.00', '80% of $15,000.00'],
    ]);
    // No target: no badge. A target of 0: the target, no attainment.
    expect(lines(rileyCells[1])).toEqual([
      ['$0.00', 'Booked $0.00'],
      ['W $0.00 · BC $0.00', 'Weighted $0.00 · Best case $0.00'],
    ]);
    expect(seen(rileyCells[2].children[2])).toBe('Target $0.00');

    const samCells = within(sam).getAllByTestId('forecast-cell');
    expect(seen(samCells[0])).toBe('$8,000.00W $0.00 · BC $8,000.00160% of $5,000.00');
    expect(within(samCells[0]).getByText('160% of $5,000.00').className).toContain('bg-green-100');
    expect(within(samCells[1]).getByText('25% of $10,000.00').className).toContain('bg-slate-100');

    const totals = within(screen.getByTestId('forecast-totals')).getAllByTestId('forecast-cell');
    expect(totals.map((cell) => seen(cell))).toEqual([
      '$20,000.00W $1,250.50 · BC $25,000.00100% of $20,000.00',
      '$2,500.00W $750.00 · BC $5,500.0025% of $10,000.00',
      '$3,000.00W $500.00 · BC $4,000.00Target $0.00',
    ]);
  });

  it('leaves out All reps when there is one row (a rep’s own forecast)', () => {
    render(<ForecastTable forecast={{ ...FORECAST, rows: [FORECAST.rows[1]], totals: FORECAST.rows[1].months }} />);
    expect(screen.getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['Sam Seller']);
    expect(screen.queryByTestId('forecast-totals')).toBeNull();
  });
});

describe('ForecastChart', () => {
  it('is an image named by its scope and described by the totals, with a bar and a target mark per month', () => {
    render(<ForecastChart months={FORECAST.totals} scope="all reps" />);
    const chart = screen.getByRole('img', { name: 'Forecast by month, all reps' });
    expect(document.getElementById(chart.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Mar 2027 to May 2027: $25,500.00 booked and $2,500.50 weighted pipeline in all, against targets of ' +
        '$30,000.00. The table below has each month.',
    );
    const months = screen.getAllByTestId('forecast-chart-month');
    expect(months.map((month) => month.querySelector('title')?.textContent)).toEqual([
      'Mar 2027: booked $20,000.00, weighted $1,250.50, target $20,000.00',
      'Apr 2027: booked $2,500.00, weighted $750.00, target $10,000.00',
      'May 2027: booked $3,000.00, weighted $500.00, target $0.00',
    ]);
    // A target of 0 draws no mark.
    expect(screen.getAllByTestId('forecast-chart-target')).toHaveLength(2);
    expect([...chart.querySelectorAll('text')].map((text) => text.textContent)).toEqual([
      '$0',
      '$10K',
      '$20K',
      '$30K',
      "Mar '27",
      "Apr '27",
      "May '27",
    ]);
  });

  it('draws an axis in round dollars when there is nothing yet', () => {
    const empty = FORECAST.totals.map((m) => ({
      ...m,
      booked: 0,
      weighted: 0,
      bestCase: 0,
      target: null,
      attainment: null,
    }));
    render(<ForecastChart months={empty} scope="Sam Seller" />);
    const chart = screen.getByRole('img', { name: 'Forecast by month, Sam Seller' });
    expect([...chart.querySelectorAll('text')].map((text) => text.textContent).slice(0, 5)).toEqual([
      '$0',
      '$250',
      '$500',
      '$750',
      '$1K',
    ]);
    expect(document.getElementById(chart.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Mar 2027 to May 2027: $0.00 booked and $0.00 weighted pipeline in all. The table below has each month.',
    );
    expect(screen.queryAllByTestId('forecast-chart-target')).toEqual([]);
  });
});
