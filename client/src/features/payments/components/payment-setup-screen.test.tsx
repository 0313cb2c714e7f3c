import { zodResolver } from '@hookform/resolvers/zod';
import {
  AUTOPAY_MESSAGES,
  autopayConsentText,
  type PaymentSetupDone,
  type PaymentSetupPage,
  setupCardSchema,
} from '@shared/contracts/autopay';
import { QueryClient, QueryClientProvider, type UseQueryResult } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { ApiError } from '@/lib/api-client';
import { savePaymentSetup } from '../api/save-payment-setup';
import { CheckboxField } from './card-fields';
import { PaymentSetupScreen, SETUP_FORM_DEFAULTS, SetupSaved } from './payment-setup-screen';

const consentText = autopayConsentText('Harbor Media');

const page: PaymentSetupPage = {
  businessName: 'Harbor Media',
  customerName: 'Bella Notte Trattoria',
  consentText,
  expiresAt: '2026-12-10T12:00:00.000Z',
  returnPath: null,
  methods: [],
  provider: 'builtin',
};

const pending = { isPending: true, isError: false, data: undefined, error: null };
const failed = (error: unknown) => ({ isPending: false, isError: true, data: undefined, error });
const loaded = (data: PaymentSetupPage) => ({ isPending: false, isError: false, data, error: null });

const render = (query: object, returnedFromStripe = false) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <Router ssrPath="/setup/tok">
        <PaymentSetupScreen
          token="tok"
          query={query as UseQueryResult<PaymentSetupPage>}
          returnedFromStripe={returnedFromStripe}
        />
      </Router>
    </QueryClientProvider>,
  );

const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Bella Notte' };

describe('PaymentSetupScreen', () => {
  it('with Stripe: the consent box and Continue to Stripe, no card field and no test cards', () => {
    const html = render(loaded({ ...page, provider: 'stripe' }));
    expect(html).toContain('>Save a payment method for Bella Notte Trattoria</h1>');
    expect(html).toContain(consentText);
    expect(html).toContain('Continue to Stripe');
    expect(html).not.toContain('>Card number</label>');
    expect(html).not.toContain('Test cards');
    expect(html).not.toContain('Save payment method');
  });

  it('back from Stripe: says the method is being saved, even once the link is spent (410)', () => {
    const spent = render(failed(new ApiError(410, 'Gone', { message: AUTOPAY_MESSAGES.setupLinkGone })), true);
    expect(spent).toContain('Your payment method is being saved');
    expect(spent).not.toContain(AUTOPAY_MESSAGES.setupLinkGone);
    expect(spent).not.toContain('<form');
    const portal = render(loaded({ ...page, provider: 'stripe', returnPath: '/portal/payment-methods' }), true);
    expect(portal).toContain('href="/portal/payment-methods"');
    expect(portal).toContain('Back to payment methods');
  });

  it('shows the server message of an expired or used link in a page of its own, without the form', () => {
    const html = render(failed(new ApiError(410, 'Gone', { message: AUTOPAY_MESSAGES.setupLinkGone })));
    expect(html).toContain(AUTOPAY_MESSAGES.setupLinkGone);
    expect(html).toContain('bg-red-100');
    expect(html).not.toContain('<form');
    expect(html).not.toContain('Save payment method');
    expect(html).not.toContain('could not be loaded');
  });

  it('shows the server message of an unknown link, without the form', () => {
    const html = render(failed(new ApiError(404, 'Not Found', { message: 'This set-up link is not valid' })));
    expect(html).toContain('<h1 class="text-xl font-semibold text-slate-900">This set-up link is not valid</h1>');
    expect(html).not.toContain('<form');
  });

  it('says the page could not be loaded on another failure, with the form nowhere', () => {
    const html = render(failed(new TypeError('Failed to fetch')));
    expect(html).toContain('This page could not be loaded');
    expect(html).not.toContain('<form');
  });

  it('shows placeholders while the link is checked', () => {
    const html = render(pending);
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain('<form');
  });

  it('names the business and the customer, with the card fields, the consent box and the button', () => {
    const html = render(loaded(page));
    expect(html).toContain('Harbor Media');
    expect(html).toContain('>Save a payment method for Bella Notte Trattoria</h1>');
    for (const label of [
      '>Card number</label>',
      '>Expiration (MM / YY)</label>',
      '>CVC</label>',
      '>Name on card</label>',
    ]) {
      expect(html).toContain(label);
    }
    // The consent box is labelled with the exact text agreed, unticked.
    expect(html).toMatch(/<input (?![^>]*checked)[^>]*type="checkbox"[^>]*name="consent"/);
    expect(html).toContain(`>${consentText}</label>`);
    expect(html).toContain('Save payment method</button>');
    // Without a method on file the new one is the default: no box for it.
    expect(html).not.toContain('Make default');
  });

  it('offers "Make default", ticked, when a method is already on file', () => {
    const html = render(
      loaded({ ...page, methods: [{ id: 'pm-1', label: 'Visa •••• 4242', isDefault: true, status: 'active' }] }),
    );
    expect(html).toContain('>Make default</label>');
    expect(html).toMatch(/<input [^>]*type="checkbox"[^>]*name="makeDefault"/);
    // The form fills its boxes from its defaults once in the page: Make default ticked, the consent not given.
    expect(SETUP_FORM_DEFAULTS).toEqual({ cardNumber: '', expiry: '', cvc: '', name: '', makeDefault: true });
  });
});

describe('the consent', () => {
  const resolve = (values: object) =>
    zodResolver(setupCardSchema)({ ...SETUP_FORM_DEFAULTS, ...values } as never, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });

  it('is required: the form refuses to save without it, with the schema message', async () => {
    const unticked = await resolve(card);
    expect(unticked.errors.consent?.message).toBe('Please agree to automatic payments to save this card');
    const ticked = await resolve({ ...card, consent: false });
    expect(ticked.errors.consent?.message).toBe('Please agree to automatic payments to save this card');
  });

  it('once given, sends the card, the consent and Make default (true unless unticked)', async () => {
    const result = await resolve({ ...card, consent: true });
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ cardNumber: '4242424242424242', consent: true, makeDefault: true });
  });

  it('shows its message under the box', () => {
    const html = renderToStaticMarkup(<CheckboxField label={consentText} error={AUTOPAY_MESSAGES.consentRequired} />);
    expect(html).toMatch(
      new RegExp(
        `>${consentText}</label></div></div><p id="[^"]+-error" role="alert"[^>]*>${AUTOPAY_MESSAGES.consentRequired}</p>`,
      ),
    );
    expect(html).toContain('aria-invalid="true"');
  });
});

describe('SetupSaved', () => {
  const done: PaymentSetupDone = {
    method: {
      id: 'pm-1',
      kind: 'card',
      provider: 'builtin',
      brand: 'visa',
      last4: '4242',
      label: 'Visa •••• 4242',
      expMonth: 12,
      expYear: 2030,
      isDefault: true,
      status: 'active',
      createdAt: '2026-12-03T12:00:00.000Z',
      consent: {
        text: consentText,
        at: '2026-12-03T12:00:00.000Z',
        name: 'Bella',
        email: null,
        ip: null,
        userAgent: null,
      },
    },
    autopayEnabled: true,
  };
  const render = (returnPath: string | null) =>
    renderToStaticMarkup(
      <Router ssrPath="/setup/tok">
        <SetupSaved done={done} returnPath={returnPath} />
      </Router>,
    );

  it('says the method is saved, and leads back to the portal page the client came from', () => {
    const html = render('/portal/payment-methods');
    expect(html).toContain('Payment method saved');
    expect(html).toContain('Visa •••• 4242');
    expect(html).toMatch(/<a href="\/portal\/payment-methods"[^>]*>Back to payment methods<\/a>/);
  });

  it('has no way back for a customer without an account', () => {
    const html = render(null);
    expect(html).toContain('Payment method saved');
    expect(html).not.toContain('Back to payment methods');
  });
});

describe('savePaymentSetup', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the card to the link, and throws the decline with its message', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal('localStorage', { getItem: () => null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        bodies.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ message: 'Your card was declined.' }), { status: 400 });
      }),
    );
    const sent = {
      ...card,
      cardNumber: '4000000000000002',
      consent: true as const,
      makeDefault: false,
      saveCard: false,
    };
    const error = await savePaymentSetup('tok', sent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).serverMessage).toBe('Your card was declined.');
    expect(bodies).toEqual([{ url: '/api/setup/tok', method: 'POST', body: sent }]);
  });
});
