import type { User } from '@shared/contracts/auth';
import type { PaymentMethods, PaymentMethodView } from '@shared/contracts/autopay';
import { MutationObserver, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meQueryKey } from '@/features/auth/api/me';
import { customerPaymentMethodsQueryOptions, turnAutopayOffMutation } from '../api/customer-payment-methods';
import { autopayLine, autopayLineClass, expiryLabel, PaymentMethodsCard } from './payment-methods-card';

const CUSTOMER = 'cu-1';

const visa: PaymentMethodView = {
  id: 'pm-1',
  kind: 'card',
  provider: 'builtin',
  brand: 'visa',
  last4: '4242',
  label: 'Visa •••• 4242',
  expMonth: 4,
  expYear: 2029,
  isDefault: true,
  status: 'active',
  createdAt: '2026-11-02T12:00:00.000Z',
  consent: {
    text: 'I authorise Metro Ads to charge this payment method for the invoices of my contracts when they are due, until I turn autopay off or remove the method.',
    at: '2026-11-02T12:00:00.000Z',
    name: 'Dana Frost',
    email: 'dana@frostpine.example',
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (Macintosh) Firefox/133.0',
  },
};

const mastercard: PaymentMethodView = {
  ...visa,
  id: 'pm-2',
  brand: 'mastercard',
  last4: '4444',
  label: 'Mastercard •••• 4444',
  expMonth: 12,
  expYear: 2026,
  isDefault: false,
  status: 'expired',
  consent: { ...visa.consent, email: null, ip: null, userAgent: null },
};

const onWithTwo: PaymentMethods = {
  autopay: { enabled: true, canEnable: true, chargeOn: 'due_date', defaultMethod: visa },
  methods: [visa, mastercard],
};

function render(role: User['role'], data?: PaymentMethods) {
  const client = new QueryClient();
  client.setQueryData(meQueryKey, { role } as User);
  if (data) client.setQueryData(customerPaymentMethodsQueryOptions(CUSTOMER).queryKey, data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <PaymentMethodsCard customerId={CUSTOMER} customerName="Frost & Pine Outfitters" />
    </QueryClientProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('autopayLine and expiryLabel', () => {
  it('says where autopay charges, or that it is off; expiry as MM/YYYY', () => {
    expect(autopayLine(onWithTwo.autopay)).toBe('Autopay on: invoices are charged to Visa •••• 4242 on their due date');
    expect(autopayLine({ ...onWithTwo.autopay, chargeOn: 'issue_date' })).toBe(
      'Autopay on: invoices are charged to Visa •••• 4242 on their issue date',
    );
    expect(autopayLine({ ...onWithTwo.autopay, enabled: false })).toBe('Autopay off');
    expect(autopayLine({ ...onWithTwo.autopay, enabled: false, defaultMethod: null })).toBe('Autopay off');
    expect(autopayLine({ ...onWithTwo.autopay, defaultMethod: null })).toBe(
      'Autopay on, but no active payment method to charge: send the customer a set-up link.',
    );
    expect(autopayLineClass(onWithTwo.autopay)).toContain('text-green-800');
    expect(autopayLineClass({ ...onWithTwo.autopay, defaultMethod: null })).toContain('text-amber-800');
    expect(autopayLineClass({ ...onWithTwo.autopay, enabled: false })).toBe('text-sm text-muted-foreground');
    expect(expiryLabel(visa)).toBe('04/2029');
    expect(expiryLabel({ expMonth: null, expYear: null })).toBe('—');
  });
});

describe('PaymentMethodsCard', () => {
  it('lists the methods with expiry, default, status and the consent record; offers the link and turning off', () => {
    const html = render('finance', onWithTwo);
    expect(html).toContain('Payment methods and autopay');
    expect(html).toContain(
      '<p class="text-sm font-medium text-green-800" data-testid="autopay-state">Autopay on: invoices are charged to Visa •••• 4242 on their due date</p>',
    );
    expect(html.match(/data-testid="payment-method-row"/g)).toHaveLength(2);
    const shown = text(html);
    for (const expected of [
      'Visa •••• 4242 Default',
      '04/2029',
      'Active',
      'Mastercard •••• 4444',
      '12/2026',
      'Expired',
      'Nov 2, 2026 · Dana Frost dana@frostpine.example',
      `Consent record Text agreed ${visa.consent.text} IP address 203.0.113.7 User agent Mozilla/5.0 (Macintosh) Firefox/133.0`,
      'IP address Not recorded User agent Not recorded',
    ]) {
      expect(shown).toContain(expected);
    }
    expect(html.match(/>Default</g)).toHaveLength(1);
    expect(html.match(/<summary[^>]*>Consent record<\/summary>/g)).toHaveLength(2);
    expect(html).toContain('Send set-up link');
    expect(html).toContain('Turn autopay off');
    // Staff never see a card form.
    expect(html).not.toMatch(/<input|Card number/);
  });

  it('says autopay is off without the turn-off button, and when nothing is on file', () => {
    const html = render('admin', {
      autopay: { enabled: false, canEnable: false, chargeOn: 'due_date', defaultMethod: null },
      methods: [],
    });
    expect(html).toContain('<p class="text-sm text-muted-foreground" data-testid="autopay-state">Autopay off</p>');
    expect(html).toContain('No payment method on file.');
    expect(html).toContain('Send set-up link');
    expect(html).not.toContain('Turn autopay off');
  });

  it('after a hard decline (autopay on, no active method) says so in amber and still offers turning it off', () => {
    const failed: PaymentMethodView = { ...visa, isDefault: false, status: 'failed' };
    const html = render('finance', {
      autopay: { enabled: true, canEnable: false, chargeOn: 'due_date', defaultMethod: null },
      methods: [failed],
    });
    expect(html).toContain(
      '<p class="text-sm font-medium text-amber-800" data-testid="autopay-state">Autopay on, but no active payment method to charge: send the customer a set-up link.</p>',
    );
    expect(html).not.toContain('Autopay off');
    expect(html).not.toContain('text-green-800');
    expect(html).toContain('Turn autopay off');
    expect(html).toContain('Send set-up link');
    expect(text(html)).toContain('Failed');
  });

  it('shows a loading state until the methods arrive', () => {
    const html = render('super_admin');
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('Loading payment methods');
    expect(html).not.toContain('No payment method on file.');
  });

  it('is not shown to sales, managers or clients', () => {
    for (const role of ['sales', 'sales_manager', 'client'] as const) {
      expect(render(role, onWithTwo), role).toBe('');
    }
  });
});

describe('turning autopay off', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("the confirm's action sends PUT /api/customers/{id}/autopay with { enabled: false } and shows the answer", async () => {
    const off: PaymentMethods = { ...onWithTwo, autopay: { ...onWithTwo.autopay, enabled: false } };
    const fetch = vi.fn(async () => new Response(JSON.stringify(off), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('localStorage', { getItem: () => null });
    const client = new QueryClient();
    client.setQueryData(customerPaymentMethodsQueryOptions(CUSTOMER).queryKey, onWithTwo);

    await new MutationObserver(client, turnAutopayOffMutation(client, CUSTOMER)).mutate();

    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/customers/cu-1/autopay');
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"enabled":false}');
    expect(client.getQueryData(customerPaymentMethodsQueryOptions(CUSTOMER).queryKey)).toEqual(off);
  });
});
