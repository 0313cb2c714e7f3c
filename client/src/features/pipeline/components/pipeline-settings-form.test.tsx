// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pipelineSettingsQueryKey } from '../api/get-pipeline-settings';
import { SETTINGS, STAGES, testQueryClient } from '../lib/test-data';
import { PipelineSettingsPanel } from './pipeline-settings-form';

const calls: { url: string; method: string; body: unknown }[] = [];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: init.method ?? 'GET', body });
      return new Response(JSON.stringify(body ?? SETTINGS), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  const client = testQueryClient();
  client.setQueryData(pipelineSettingsQueryKey, SETTINGS);
  render(
    <QueryClientProvider client={client}>
      <PipelineSettingsPanel />
    </QueryClientProvider>,
  );
});
afterEach(() => {
  cleanup();
  calls.length = 0;
  vi.unstubAllGlobals();
});

const names = () => screen.getAllByLabelText('Name').map((input) => (input as HTMLInputElement).value);
const puts = () => calls.filter((call) => call.method === 'PUT');

describe('PipelineSettingsPanel', () => {
  it('lists the stages in order with their fields and labelled buttons to move and remove each', () => {
    expect(names()).toEqual(['Lead', 'Qualified', 'Proposal', 'Won', 'Lost']);
    expect(screen.getAllByLabelText('Probability (%)').map((input) => (input as HTMLInputElement).value)).toEqual([
      '10',
      '25',
      '50',
      '100',
      '0',
    ]);
    const proposal = within(screen.getAllByTestId('pipeline-stage-row')[2]);
    expect(proposal.getByRole('combobox', { name: 'Kind' }).textContent).toContain('Open');
    expect(proposal.getByRole('combobox', { name: 'Follows' }).textContent).toContain('Contract drafted');
    expect(
      within(screen.getAllByTestId('pipeline-stage-row')[0]).getByRole('combobox', { name: 'Follows' }).textContent,
    ).toContain('—');
    expect((screen.getByRole('button', { name: 'Move Lead up' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move Lost down' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Remove Qualified' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Lost reasons' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Price', 'Budget', 'Timing']);
    expect((screen.getByLabelText('Stale after (days)') as HTMLInputElement).value).toBe('14');
  });

  it('saves the stages in their new order with a new one, the reasons and the days', async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Move Qualified down' }));
    expect(names()).toEqual(['Lead', 'Proposal', 'Qualified', 'Won', 'Lost']);
    fireEvent.click(screen.getByRole('button', { name: 'Add stage' }));
    expect(names()).toEqual(['Lead', 'Proposal', 'Qualified', '', 'Won', 'Lost']);
    fireEvent.change(screen.getAllByLabelText('Name')[3], { target: { value: 'IO sent' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove lost reason Timing' }));
    fireEvent.change(screen.getByLabelText('New lost reason'), { target: { value: 'Went quiet' } });
    fireEvent.keyDown(screen.getByLabelText('New lost reason'), { key: 'Enter' });
    fireEvent.change(screen.getByLabelText('Stale after (days)'), { target: { value: '21' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Pipeline Settings' }));

    await waitFor(() => expect(puts()).toHaveLength(1));
    const body = puts()[0].body as { stages: { id: string | null; name: string }[] };
    expect(puts()[0].url).toBe('/api/settings/pipeline');
    expect(body).toMatchObject({ lostReasons: ['Price', 'Budget', 'Went quiet'], rottenDays: 21 });
    expect(body.stages.map((stage) => [stage.id, stage.name])).toEqual([
      [STAGES[0].id, 'Lead'],
      [STAGES[2].id, 'Proposal'],
      [STAGES[1].id, 'Qualified'],
      [null, 'IO sent'],
      [STAGES[3].id, 'Won'],
      [STAGES[4].id, 'Lost'],
    ]);
  });

  it('says what the shared schema refuses and sends nothing', async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Remove Won' }));
    fireEvent.change(screen.getAllByLabelText('Name')[1], { target: { value: 'lead' } });
    fireEvent.change(screen.getByLabelText('Stale after (days)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Pipeline Settings' }));

    await waitFor(() => expect(screen.getByText('Keep exactly one won stage')).toBeTruthy());
    expect(screen.getByText('Two stages cannot have the same name')).toBeTruthy();
    expect(screen.getByText('Stale after must be a number of days from 1 to 365')).toBeTruthy();
    expect(puts()).toEqual([]);
  });
});
