// @vitest-environment happy-dom
import { DEAL_MESSAGES, prospectSchema } from '@shared/contracts/deals';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pipelineSettingsQueryKey } from '../api/get-pipeline-settings';
import { LEAD, makeDeal, QUALIFIED, SETTINGS, testQueryClient } from '../lib/test-data';
import { DealFormDialog } from './deal-form-dialog';

const calls: { url: string; method: string; body: unknown }[] = [];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: init.method ?? 'GET', body });
      // The product options (none needed here); a new deal answers as created.
      const answer = url.startsWith('/api/products') ? [] : makeDeal({ ...body, id: 'new' });
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  calls.length = 0;
  vi.unstubAllGlobals();
});

function renderDialog(deal = null as ReturnType<typeof makeDeal> | null) {
  const client = testQueryClient();
  client.setQueryData(pipelineSettingsQueryKey, SETTINGS);
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <DealFormDialog open onOpenChange={onOpenChange} deal={deal} canChooseOwner={false} />
    </QueryClientProvider>,
  );
  return { dialog: within(screen.getByRole('dialog')), onOpenChange };
}

/** The shared schema's own message for a prospect field, whatever its wording. */
const prospectMessage = (field: 'name' | 'email', value: string) =>
  prospectSchema.shape[field].safeParse(value).error?.issues[0]?.message;

const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}-error`)?.textContent;
const posts = () => calls.filter((call) => call.method !== 'GET');

describe('DealFormDialog', () => {
  it('shows the shared schema’s messages under their fields and sends nothing', async () => {
    const { dialog } = renderDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Create deal' }));
    await waitFor(() => expect(errorOf(dialog.getByLabelText('Title'))).toBe(DEAL_MESSAGES.titleRequired));
    expect(errorOf(dialog.getByRole('combobox', { name: 'Customer' }))).toBe(DEAL_MESSAGES.customerOrProspect);
    expect(errorOf(dialog.getByLabelText('Amount ($)'))).toBe(DEAL_MESSAGES.amountRequired);

    fill(dialog.getByLabelText('Amount ($)'), '12.345');
    fill(dialog.getByLabelText('Probability (%)'), '120');
    fill(dialog.getByLabelText('Flight start'), '2027-02-01');
    fill(dialog.getByLabelText('Flight end'), '2027-01-31');
    fireEvent.click(dialog.getByLabelText('New prospect'));
    fill(dialog.getByLabelText('Prospect e-mail'), 'not an address');
    fireEvent.click(dialog.getByRole('button', { name: 'Create deal' }));
    await waitFor(() => expect(errorOf(dialog.getByLabelText('Amount ($)'))).toBe(DEAL_MESSAGES.amountInvalid));
    expect(errorOf(dialog.getByLabelText('Probability (%)'))).toBe(DEAL_MESSAGES.probabilityRange);
    expect(errorOf(dialog.getByLabelText('Flight end'))).toBe(DEAL_MESSAGES.flightOrder);
    expect(errorOf(dialog.getByLabelText('Prospect name'))).toBe(prospectMessage('name', ''));
    expect(errorOf(dialog.getByLabelText('Prospect e-mail'))).toBe(prospectMessage('email', 'not an address'));
    expect(prospectMessage('email', 'not an address')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('shows the chosen stage’s default probability, and creates a prospect’s deal with money in dollars', async () => {
    const { dialog, onOpenChange } = renderDialog();
    expect(dialog.getByLabelText('Probability (%)').getAttribute('placeholder')).toBe('Stage default: 10%');
    expect(dialog.getByRole('combobox', { name: 'Stage' }).textContent).toContain('Lead');

    fireEvent.click(dialog.getByLabelText('New prospect'));
    fill(dialog.getByLabelText('Prospect name'), 'Harbor Bakery');
    fill(dialog.getByLabelText('Prospect e-mail'), 'Owner@Harbor.example');
    fill(dialog.getByLabelText('Title'), 'Holiday banners');
    fill(dialog.getByLabelText('Amount ($)'), '12500.50');
    fill(dialog.getByLabelText('Expected close date'), '2026-12-15');
    fireEvent.click(dialog.getByRole('button', { name: 'Create deal' }));

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({
      url: '/api/deals',
      method: 'POST',
      body: {
        customerId: null,
        prospect: prospectSchema.parse({ name: 'Harbor Bakery', email: 'Owner@Harbor.example' }),
        title: 'Holiday banners',
        ownerId: null,
        stageId: LEAD.id,
        amount: 12500.5,
        expectedCloseDate: '2026-12-15',
        flightStart: null,
        flightEnd: null,
        probability: null,
        source: 'outbound',
        nextStep: null,
        lines: [],
      },
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('puts the server’s messages about the prospect under the prospect’s fields', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
        if (url.startsWith('/api/products')) return Response.json([]);
        return Response.json(
          {
            message: 'Check the prospect',
            fieldErrors: { 'prospect.name': ['Name is taken here'], 'prospect.email': ['E-mail is refused here'] },
          },
          { status: 400 },
        );
      }),
    );
    const { dialog, onOpenChange } = renderDialog();
    fireEvent.click(dialog.getByLabelText('New prospect'));
    fill(dialog.getByLabelText('Prospect name'), 'Harbor Bakery');
    fill(dialog.getByLabelText('Prospect e-mail'), 'owner@harbor.example');
    fill(dialog.getByLabelText('Title'), 'Holiday banners');
    fill(dialog.getByLabelText('Amount ($)'), '100');
    fireEvent.click(dialog.getByRole('button', { name: 'Create deal' }));

    await waitFor(() => expect(errorOf(dialog.getByLabelText('Prospect e-mail'))).toBe('E-mail is refused here'));
    expect(errorOf(dialog.getByLabelText('Prospect name'))).toBe('Name is taken here');
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('edits with PATCH, sending the version it opened with and the deal’s own probability', async () => {
    const deal = makeDeal({
      stageId: QUALIFIED.id,
      stageName: 'Qualified',
      probability: 40,
      probabilityOverridden: true,
    });
    const { dialog } = renderDialog(deal);
    expect((dialog.getByLabelText('Probability (%)') as HTMLInputElement).value).toBe('40');
    expect(dialog.getByLabelText('Probability (%)').getAttribute('placeholder')).toBe('Stage default: 25%');
    expect(dialog.queryByLabelText('New prospect')).toBeNull();
    fill(dialog.getByLabelText('Title'), 'Holiday banners and radio');
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({
      url: `/api/deals/${deal.id}`,
      method: 'PATCH',
      body: { title: 'Holiday banners and radio', amount: 12500, probability: 40, version: 3 },
    });
    expect(posts()[0].body).not.toHaveProperty('stageId');
    expect(posts()[0].body).not.toHaveProperty('customerId');
  });
});
