// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORECAST, PAT, RILEY, SAM, testQueryClient } from '../lib/test-data';
import { TargetsDialog } from './targets-dialog';

const calls: { url: string; method: string; body: unknown }[] = [];
/** The answer of the next PUT (the saved count by default). */
let refusal: { status: number; body: unknown } | null = null;

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method, body });
      const json = (status: number, answer: unknown) =>
        new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
      if (method === 'GET') return json(200, FORECAST);
      if (refusal) return json(refusal.status, refusal.body);
      return json(200, { saved: body.targets.length });
    }),
  );
});
afterEach(() => {
  cleanup();
  calls.length = 0;
  refusal = null;
  vi.unstubAllGlobals();
});

const PEOPLE = [
  { id: SAM, name: 'Sam Seller' },
  { id: PAT, name: 'Pat Newcomer' },
  { id: RILEY, name: 'Riley Rep' },
];

async function renderDialog(repId?: string) {
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <TargetsDialog open onOpenChange={onOpenChange} months={3} people={PEOPLE} repId={repId} />
    </QueryClientProvider>,
  );
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit targets' }));
  await dialog.findByLabelText('Mar 2027 ($)');
  return { dialog, onOpenChange };
}

const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const inputValue = (input: HTMLElement) => (input as HTMLInputElement).value;
const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}-error`)?.textContent;
const puts = () => calls.filter((call) => call.method === 'PUT');

describe('TargetsDialog', () => {
  it('asks for every rep’s targets of the screen’s months and starts from those set', async () => {
    const { dialog } = await renderDialog(SAM);
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/forecast?months=3' });
    expect(dialog.getByRole('combobox', { name: 'Rep' }).textContent).toContain('Sam Seller');
    expect(dialog.getByRole('group', { name: 'Targets of Sam Seller by month' })).toBeTruthy();
    expect(
      ['Mar 2027 ($)', 'Apr 2027 ($)', 'May 2027 ($)'].map((label) => inputValue(dialog.getByLabelText(label))),
    ).toEqual(['5000.00', '10000.00', '']);
  });

  it('sends only the months changed, in dollars, for the rep shown, and closes', async () => {
    const { dialog, onOpenChange } = await renderDialog(SAM);
    fill(dialog.getByLabelText('Apr 2027 ($)'), '12,500');
    fill(dialog.getByLabelText('May 2027 ($)'), ' 7000.5 ');
    fireEvent.click(dialog.getByRole('button', { name: 'Save targets' }));

    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toEqual({
      url: '/api/forecast/targets',
      method: 'PUT',
      body: {
        targets: [
          { ownerId: SAM, month: '2027-04', amount: 12500 },
          { ownerId: SAM, month: '2027-05', amount: 7000.5 },
        ],
      },
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('without a rep chosen starts with the first by name, and a rep with no row has empty months', async () => {
    const { dialog } = await renderDialog();
    expect(dialog.getByRole('combobox', { name: 'Rep' }).textContent).toContain('Pat Newcomer');
    expect(
      ['Mar 2027 ($)', 'Apr 2027 ($)', 'May 2027 ($)'].map((label) => inputValue(dialog.getByLabelText(label))),
    ).toEqual(['', '', '']);
    fill(dialog.getByLabelText('Mar 2027 ($)'), '0');
    fireEvent.click(dialog.getByRole('button', { name: 'Save targets' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0].body).toEqual({ targets: [{ ownerId: PAT, month: '2027-03', amount: 0 }] });
  });

  it('removes the target of a month emptied', async () => {
    const { dialog } = await renderDialog(SAM);
    fill(dialog.getByLabelText('Mar 2027 ($)'), '');
    fireEvent.click(dialog.getByRole('button', { name: 'Save targets' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0].body).toEqual({ targets: [{ ownerId: SAM, month: '2027-03', amount: null }] });
  });

  it('says what the shared schema refuses and sends nothing', async () => {
    const { dialog, onOpenChange } = await renderDialog(SAM);
    fireEvent.click(dialog.getByRole('button', { name: 'Save targets' }));
    expect(await dialog.findByText('Set at least one target')).toBeTruthy();

    fill(dialog.getByLabelText('Apr 2027 ($)'), '12.345');
    fill(dialog.getByLabelText('May 2027 ($)'), '-5');
    fireEvent.click(dialog.getByRole('button', { name: 'Save targets' }));
    await waitFor(() => expect(errorOf(dialog.getByLabelText('Apr 2027 ($)'))).toBeTruthy());
    expect(errorOf(dialog.getByLabelText('Apr 2027 ($)'))).toBe(
      'Target must be an amount in dollars with at most two decimals, like 25000.00',
    );
    expect(errorOf(dialog.getByLabelText('May 2027 ($)'))).toBe('A target cannot be negative');
    expect(dialog.queryByText('Set at least one target')).toBeNull();
    expect(puts()).toEqual([]);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('shows the server’s message under the month it is about and stays open', async () => {
    refusal = {
      status: 400,
      body: {
        code: 'BAD_REQUEST',
        message: 'Choose a sales rep or sales manager',
        fieldErrors: { 'targets.1.ownerId': ['Choose a sales rep or sales manager'] },
      },
    };
    const { dialog, onOpenChange } = await renderDialog(SAM);
    fill(dialog.getByLabelText('Mar 2027 ($)'), '6000');
    fill(dialog.getByLabelText('May 2027 ($)'), '9000');
    fireEvent.click(dialog.getByRole('button', { name: 'Save targets' }));
    await waitFor(() =>
      expect(errorOf(dialog.getByLabelText('May 2027 ($)'))).toBe('Choose a sales rep or sales manager'),
    );
    expect(errorOf(dialog.getByLabelText('Mar 2027 ($)'))).toBeUndefined();
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
