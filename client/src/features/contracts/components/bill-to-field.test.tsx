// @vitest-environment happy-dom
import type { ContractFormValues } from '@shared/contracts/contract-form';
import { newContractFormValues, toContractPayload } from '@shared/contracts/contract-form-values';
import type { Contract } from '@shared/contracts/contract-responses';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BillToField } from './bill-to-field';
import { ContractDetails } from './contract-details';
import type { ContractForm } from './contract-form';

const ADVERTISER = '11111111-1111-4111-8111-111111111111';
const AGENCY = '22222222-2222-4222-8222-222222222222';

let agencyOfRecord: object | null = null;

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const answer = url.startsWith(`/api/customers/${ADVERTISER}`)
        ? { id: ADVERTISER, name: 'Bella Notte Trattoria', agencyOfRecord }
        : {};
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  agencyOfRecord = null;
  vi.unstubAllGlobals();
});

let latest: ContractForm | null = null;
function Harness({ startDate = '2027-03-01' }: { startDate?: string }) {
  const form = useForm<ContractFormValues>({
    defaultValues: { ...newContractFormValues('2027-01-01'), customerId: ADVERTISER, startDate },
  }) as unknown as ContractForm;
  latest = form;
  return <BillToField form={form} />;
}

function renderField(startDate?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Harness startDate={startDate} />
    </QueryClientProvider>,
  );
}

const cardinal = {
  agencyId: AGENCY,
  agencyName: 'Cardinal Media',
  commissionPercent: 15,
  billingMode: 'net',
  from: '2027-01-01',
  to: null,
};

describe('BillToField', () => {
  it('offers the agency of record (the default) or the advertiser itself', async () => {
    agencyOfRecord = cardinal;
    renderField();
    const select = await screen.findByLabelText('Bill to');
    expect(select.textContent).toBe('Cardinal Media (agency)');
    expect(
      screen.getByText(
        'Invoices, the insertion order and the pay link go to Cardinal Media. 15% agency commission, net billing.',
      ),
    ).toBeTruthy();
    // The default is sent as null: the server decides it.
    expect(toContractPayload(latest!.getValues()).billToCustomerId).toBeNull();
    latest!.setValue('billToCustomerId', ADVERTISER);
    await waitFor(() =>
      expect(screen.getByLabelText('Bill to').textContent).toBe('Bella Notte Trattoria (advertiser)'),
    );
    expect(toContractPayload(latest!.getValues()).billToCustomerId).toBe(ADVERTISER);
  });

  it('is not shown for a customer without an agency of record, nor outside its dates', async () => {
    renderField();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByLabelText('Bill to')).toBeNull();
    cleanup();
    agencyOfRecord = { ...cardinal, from: '2027-06-01' };
    renderField('2027-03-01');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByLabelText('Bill to')).toBeNull();
  });
});

describe('ContractDetails', () => {
  const contract = (billed: Partial<Contract>) =>
    ({
      customerId: ADVERTISER,
      customer: { id: ADVERTISER, name: 'Bella Notte Trattoria', email: 'ciao@bellanotte.test', company: null },
      billToCustomerId: ADVERTISER,
      billToName: 'Bella Notte Trattoria',
      agencyCommissionPercent: null,
      agencyBillingMode: null,
      startDate: '2027-03-01',
      termMonths: 3,
      autoStopDate: '2027-06-01',
      paymentMode: 'pay_link',
      underDeliveryRemedy: 'credit',
      salesRepName: null,
      status: 'draft',
      package: null,
      lineItems: [],
      canAmend: false,
      description: null,
      ...billed,
    }) as unknown as Contract;

  it('shows "Billed to" with the agency, its commission and mode when billed to an agency', () => {
    render(
      <ContractDetails
        contract={contract({
          billToCustomerId: AGENCY,
          billToName: 'Cardinal Media',
          agencyCommissionPercent: 12.5,
          agencyBillingMode: 'gross',
        })}
      />,
    );
    expect(screen.getByText('Billed to')).toBeTruthy();
    expect(screen.getByText('Cardinal Media')).toBeTruthy();
    expect(screen.getByText('12.5% agency commission, gross billing')).toBeTruthy();
  });

  it('has no "Billed to" when the customer itself is billed', () => {
    render(<ContractDetails contract={contract({})} />);
    expect(screen.queryByText('Billed to')).toBeNull();
  });
});
