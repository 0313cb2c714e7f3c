// @vitest-environment happy-dom
import { AGENCY_MESSAGES, type AgencyOfRecord, agencyOfRecordSchema } from '@shared/contracts/agencies';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgencyOfRecordDialog } from './agency-of-record-dialog';

const AGENCY = { id: '11111111-1111-4111-8111-111111111111', name: 'Cardinal Media', agencyCommissionPercent: 12 };
const ADVERTISER = '22222222-2222-4222-8222-222222222222';

const PERIOD: AgencyOfRecord = {
  id: '33333333-3333-4333-8333-333333333333',
  advertiserId: ADVERTISER,
  advertiserName: 'Bella Notte Trattoria',
  agencyId: AGENCY.id,
  agencyName: AGENCY.name,
  commissionPercent: 12,
  billingMode: 'net',
  from: '2026-01-01',
  to: null,
};

const calls: { url: string; method: string; body: unknown }[] = [];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: init.method ?? 'GET', body });
      // The agency picker's list (customers of kind agency); a PUT answers the advertiser's periods.
      const answer = url.startsWith('/api/customers?') ? [AGENCY] : [{ ...PERIOD, ...body }];
      return Response.json(answer);
    }),
  );
});
afterEach(() => {
  cleanup();
  calls.length = 0;
  vi.unstubAllGlobals();
});

function renderDialog(period: AgencyOfRecord | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <AgencyOfRecordDialog
        open
        onOpenChange={onOpenChange}
        customerId={ADVERTISER}
        customerName="Bella Notte Trattoria"
        period={period}
      />
    </QueryClientProvider>,
  );
  return { dialog: within(screen.getByRole('dialog')), onOpenChange };
}

const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}-error`)?.textContent;
const writes = () => calls.filter((call) => call.method !== 'GET');

describe('AgencyOfRecordDialog', () => {
  it('shows the shared schema’s messages under their fields and sends nothing', async () => {
    const { dialog } = renderDialog(null);
    expect(calls.map((call) => call.url)).toEqual(['/api/customers?kind=agency&limit=500']);
    fill(dialog.getByLabelText('From'), '');
    fireEvent.click(dialog.getByRole('button', { name: 'Set agency' }));
    await waitFor(() =>
      expect(errorOf(dialog.getByRole('combobox', { name: 'Agency' }))).toBe(AGENCY_MESSAGES.agencyRequired),
    );
    expect(errorOf(dialog.getByLabelText('From'))).toBe(AGENCY_MESSAGES.fromRequired);

    fill(dialog.getByLabelText('Commission (%)'), '100.5');
    fill(dialog.getByLabelText('From'), '2026-03-01');
    fill(dialog.getByLabelText('To'), '2026-02-28');
    fireEvent.click(dialog.getByRole('button', { name: 'Set agency' }));
    await waitFor(() =>
      expect(errorOf(dialog.getByLabelText('Commission (%)'))).toBe(AGENCY_MESSAGES.commissionInvalid),
    );
    expect(errorOf(dialog.getByLabelText('To'))).toBe(AGENCY_MESSAGES.toBeforeFrom);
    fill(dialog.getByLabelText('Commission (%)'), '12.345');
    fireEvent.click(dialog.getByRole('button', { name: 'Set agency' }));
    await waitFor(() =>
      expect(errorOf(dialog.getByLabelText('Commission (%)'))).toBe(AGENCY_MESSAGES.commissionInvalid),
    );
    expect(writes()).toEqual([]);
  });

  it('changes a period with PUT: a blank commission is the agency’s own, a blank "to" until further notice', async () => {
    const { dialog, onOpenChange } = renderDialog(PERIOD);
    await waitFor(() => expect(dialog.getByText("Blank: the agency's own 12%.")).toBeTruthy());
    fill(dialog.getByLabelText('Commission (%)'), '');
    fill(dialog.getByLabelText('To'), '2026-12-31');
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      url: `/api/customers/${ADVERTISER}/agency`,
      method: 'PUT',
      body: agencyOfRecordSchema.parse({
        agencyId: AGENCY.id,
        commissionPercent: '',
        billingMode: 'net',
        from: '2026-01-01',
        to: '2026-12-31',
      }),
    });
    expect(writes()[0].body).toMatchObject({ commissionPercent: null, to: '2026-12-31' });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('puts the server’s refusal under its field and stays open', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
        if (url.startsWith('/api/customers?')) return Response.json([AGENCY]);
        return Response.json(
          {
            message: AGENCY_MESSAGES.notAnAgency,
            code: 'VALIDATION',
            fieldErrors: { agencyId: [AGENCY_MESSAGES.notAnAgency] },
          },
          { status: 400 },
        );
      }),
    );
    const { dialog, onOpenChange } = renderDialog(PERIOD);
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(errorOf(dialog.getByRole('combobox', { name: 'Agency' }))).toBe(AGENCY_MESSAGES.notAnAgency),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
