import { zodResolver } from '@hookform/resolvers/zod';
import { autopayConsentText, SAVE_CARD_LABEL } from '@shared/contracts/autopay';
import { cardPaymentSchema } from '@shared/contracts/checkout';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { payCheckout } from '../api/pay-checkout';
import { CheckboxField } from './card-fields';
import { CheckoutForm } from './checkout-form';

const consent = autopayConsentText('Harbor Media');
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Chris Holiday' };

const render = () =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <Router ssrPath="/checkout/tok">
        <CheckoutForm token="tok" amount={1800} autopayConsent={consent} />
      </Router>
    </QueryClientProvider>,
  );

describe('CheckoutForm', () => {
  it('offers to save the card right after the card fields, unticked, its consent hidden', () => {
    const html = render();
    expect(SAVE_CARD_LABEL).toBe('Save this card and pay future invoices of this contract automatically');
    expect(html).toMatch(
      new RegExp(
        `name="name"/></div><div class="grid gap-1.5"><div class="flex items-start gap-2"><input id="([^"]+)" type="checkbox"[^>]*name="saveCard"/><div class="grid gap-1"><label for="\\1"[^>]*>${SAVE_CARD_LABEL}</label></div>`,
      ),
    );
    expect(html).not.toMatch(/name="saveCard"[^>]*checked/);
    expect(html).not.toContain(consent);
    expect(html).toContain('Pay $1,800.00</button>');
  });

  it('shows the consent in small muted text under the box once ticked', () => {
    const html = renderToStaticMarkup(
      <CheckboxField label={SAVE_CARD_LABEL} defaultChecked>
        {consent}
      </CheckboxField>,
    );
    expect(html).toMatch(
      new RegExp(`>${SAVE_CARD_LABEL}</label><p id="[^"]+-note" class="text-xs text-muted-foreground">${consent}</p>`),
    );
    expect(html).toMatch(/aria-describedby="[^"]+-note"/);
  });
});

describe('what the checkout sends', () => {
  afterEach(() => vi.unstubAllGlobals());
  const resolve = (values: object) =>
    zodResolver(cardPaymentSchema)(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });

  async function sent(values: object) {
    const bodies: unknown[] = [];
    vi.stubGlobal('localStorage', { getItem: () => null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ redirectUrl: '/payment/success' }), { status: 200 });
      }),
    );
    const { values: card, errors } = await resolve(values);
    expect(errors).toEqual({});
    await payCheckout('tok', card as never);
    return bodies[0];
  }

  it('sends saveCard: true when the box is ticked', async () => {
    expect(await sent({ ...card, saveCard: true })).toEqual({
      cardNumber: '4242424242424242',
      expiry: '12 / 30',
      cvc: '123',
      name: 'Chris Holiday',
      saveCard: true,
    });
  });

  it('sends saveCard: false when it is left as it starts', async () => {
    expect(await sent({ ...card, saveCard: false })).toMatchObject({ saveCard: false });
  });
});
