import type { PaymentMethods, PaymentMethodView } from '@shared/contracts/autopay';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paymentMethodsQueryKey } from '../api/get-payment-methods';
import { makeDefaultPaymentMethod } from '../api/make-default-payment-method';
import { removePaymentMethod } from '../api/remove-payment-method';
import { setAutopay } from '../api/set-autopay';
import { startPaymentSetup } from '../api/start-payment-setup';
import { autopayExplanation, expiryLabel, PaymentMethodsScreen, removeTitle } from './payment-methods-screen';

const consent = {
  text: 'I authorise Harbor Media to charge this payment method ...',
  at: '2026-11-02T15:04:00.000Z',
  name: 'Chris Holiday',
  email: 'chris@example.com',
  ip: null,
  userAgent: null,
};

const visa: PaymentMethodView = {
  id: 'pm-visa',
  kind: 'card',
  provider: 'builtin',
  brand: 'visa',
  last4: '4242',
  label: 'Visa •••• 4242',
  expMonth: 4,
  expYear: 2028,
  isDefault: true,
  status: 'active',
  createdAt: '2026-11-02T15:04:00.000Z',
  consent,
};

const mastercard: PaymentMethodView = {
  ...visa,
  id: 'pm-mc',
  brand: 'mastercard',
  last4: '4444',
  label: 'Mastercard •••• 4444',
  expMonth: 11,
  expYear: 2025,
  isDefault: false,
  status: 'expired',
  consent: { ...consent, at: '2025-06-20T09:00:00.000Z' },
};

const onWithVisa: PaymentMethods = {
  autopay: { enabled: true, canEnable: true, chargeOn: 'due_date', defaultMethod: visa },
  methods: [visa, mastercard],
};
const nothingOnFile: PaymentMethods = {
  autopay: { enabled: false, canEnable: false, chargeOn: 'due_date', defaultMethod: null },
  methods: [],
};

/** The screen with the client's methods already answered (undefined: still loading). */
function render(data: PaymentMethods | undefined) {
  const client = new QueryClient();
  if (data) client.setQueryData(paymentMethodsQueryKey, data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <PaymentMethodsScreen />
    </QueryClientProvider>,
  );
}

const switchOf = (html: string) => html.match(/<button[^>]*role="switch"[^>]*>/)?.[0] ?? '';
const rows = (html: string) => html.match(/<li[^>]*data-testid="payment-method"[^>]*>.*?<\/li>/g) ?? [];

describe('PaymentMethodsScreen', () => {
  it('lists each method with its label, expiry, default and status badges and the day consent was given', () => {
    const html = render(onWithVisa);
    expect(html).toContain('<h1 class="text-2xl font-semibold tracking-tight text-slate-900">Payment methods</h1>');
    const [first, second] = rows(html);
    expect(rows(html)).toHaveLength(2);
    expect(first).toContain('Visa •••• 4242');
    expect(first).toContain('>Default</span>');
    expect(first).toContain('Expires 04/2028 · Consent given Nov 2, 2026');
    expect(first).not.toContain('Expired');
    expect(first).not.toContain('Make default');
    expect(first).toContain('aria-label="Remove Visa •••• 4242"');
    expect(second).toContain('Mastercard •••• 4444');
    expect(second).toContain('>Expired</span>');
    expect(second).not.toContain('>Default</span>');
    expect(second).toContain('Expires 11/2025 · Consent given Jun 20, 2025');
    expect(second).toContain('aria-label="Make Mastercard •••• 4444 the default"');
    expect(second).toContain('aria-label="Remove Mastercard •••• 4444"');
    // The add button sits in the header once something is on file.
    expect(html).toContain('Add a payment method');
    expect(html).not.toContain('No payment method on file yet.');
  });

  it('shows autopay on, charging the default method on the due date', () => {
    const html = render(onWithVisa);
    expect(html).toContain('>Autopay</label>');
    expect(html).toContain('On: open invoices are charged to Visa •••• 4242 on their due date.');
    expect(switchOf(html)).toContain('aria-checked="true"');
    expect(switchOf(html)).not.toContain('disabled=""');
    expect(html).not.toContain('data-testid="autopay-hint"');
  });

  it('shows a Failed badge for a method whose charges failed', () => {
    const failed = { ...mastercard, status: 'failed' as const };
    const [, second] = rows(render({ ...onWithVisa, methods: [visa, failed] }));
    expect(second).toContain('>Failed</span>');
    expect(second).not.toContain('>Expired</span>');
  });

  it('says nothing is on file yet, offers to add one, and keeps the switch off and disabled with a hint', () => {
    const html = render(nothingOnFile);
    expect(html).toContain('No payment method on file yet.');
    expect(html.match(/Add a payment method<\/button>/g)).toHaveLength(1);
    expect(rows(html)).toHaveLength(0);
    expect(html).toContain('Off: you pay each invoice yourself.');
    expect(switchOf(html)).toContain('aria-checked="false"');
    expect(switchOf(html)).toContain('disabled=""');
    expect(html).toContain('Add a payment method before turning autopay on.');
  });

  it('disables turning autopay on without an active default method, never turning it off', () => {
    const failedDefault = { ...visa, status: 'failed' as const };
    const off = render({
      autopay: { enabled: false, canEnable: false, chargeOn: 'due_date', defaultMethod: failedDefault },
      methods: [failedDefault],
    });
    expect(switchOf(off)).toContain('disabled=""');
    expect(off).toContain('Make an active payment method your default before turning autopay on.');
    const canTurnOn = render({ ...onWithVisa, autopay: { ...onWithVisa.autopay, enabled: false } });
    expect(switchOf(canTurnOn)).not.toContain('disabled=""');
    expect(switchOf(canTurnOn)).toContain('aria-checked="false"');
    const on = render({ ...onWithVisa, autopay: { ...onWithVisa.autopay, canEnable: false } });
    expect(switchOf(on)).not.toContain('disabled=""');
  });

  it('shows placeholders while the methods load', () => {
    const html = render(undefined);
    expect(html).toContain('data-testid="payment-methods-loading"');
    expect(html).toContain('Loading payment methods');
    expect(html).not.toContain('No payment method on file yet.');
    expect(html).not.toContain('role="switch"');
  });
});

describe('the words of the screen', () => {
  it('asks "Remove Visa •••• 4242?" before removing', () => {
    expect(removeTitle(visa)).toBe('Remove Visa •••• 4242?');
  });

  it('writes the expiry as MM/YYYY, and none for a bank account', () => {
    expect(expiryLabel(visa)).toBe('Expires 04/2028');
    expect(expiryLabel({ expMonth: null, expYear: null })).toBeNull();
  });

  it('names the charge day of the settings', () => {
    expect(autopayExplanation({ ...onWithVisa, autopay: { ...onWithVisa.autopay, chargeOn: 'issue_date' } })).toBe(
      'On: open invoices are charged to Visa •••• 4242 on the day they are issued.',
    );
  });
});

describe('the requests of the screen', () => {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const answer = (body: unknown) => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
  };
  afterEach(() => {
    calls.length = 0;
    vi.unstubAllGlobals();
  });

  it('removes a method, makes one the default, switches autopay and starts adding one', async () => {
    answer({ ...onWithVisa, message: 'Payment method removed.' });
    expect((await removePaymentMethod('pm-mc')).message).toBe('Payment method removed.');
    await makeDefaultPaymentMethod('pm-mc');
    await setAutopay(false);
    await startPaymentSetup();
    expect(calls).toEqual([
      { method: 'DELETE', url: '/api/client/payment-methods/pm-mc', body: undefined },
      { method: 'POST', url: '/api/client/payment-methods/pm-mc/default', body: undefined },
      { method: 'PUT', url: '/api/client/autopay', body: { enabled: false } },
      { method: 'POST', url: '/api/client/payment-methods/setup', body: undefined },
    ]);
  });
});
