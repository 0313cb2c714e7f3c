import type { CardPaymentValues } from '@shared/contracts/checkout';
import { renderToStaticMarkup } from 'react-dom/server';
import type { FieldErrors } from 'react-hook-form';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { CardFields } from './card-fields';

function Fields({ cardNumber, errors = {} }: { cardNumber: string; errors?: FieldErrors<CardPaymentValues> }) {
  const form = useForm<CardPaymentValues>();
  return <CardFields register={form.register} errors={errors} cardNumber={cardNumber} disabled={false} />;
}

const render = (cardNumber: string, errors?: FieldErrors<CardPaymentValues>) =>
  renderToStaticMarkup(<Fields cardNumber={cardNumber} errors={errors} />);

describe('CardFields', () => {
  it('keeps the labels and placeholders, and leaves the number room for the card icon only', () => {
    const html = render('');
    for (const label of ['Card number', 'Expiration (MM / YY)', 'CVC', 'Name on card']) {
      expect(html).toContain(`>${label}</label>`);
    }
    expect(html).toContain('placeholder="1234 1234 1234 1234"');
    expect(html).toContain('placeholder="MM / YY"');
    expect(html).toContain('placeholder="123"');
    // The number's input is padded for the icon (pr-10), no longer for a brand name inside the field (pr-28).
    expect(html).toMatch(/<input[^>]*class="[^"]*\bh-10 pr-10 font-mono[^"]*"[^>]*placeholder="1234 1234 1234 1234"/);
    expect(html).not.toContain('pr-28');
    expect(html).toMatch(/<svg[^>]*class="[^"]*lucide-credit-card[^"]*absolute[^"]*right-3/);
    // No brand is known yet.
    expect(html).not.toContain('data-testid="card-brand"');
  });

  it('names the brand beside the label, outside the field, as the number is typed', () => {
    expect(render('4242 4242 4242 4242')).toContain('data-testid="card-brand">Visa</span>');
    const amex = render('3782 822463 10005');
    expect(amex).toContain('data-testid="card-brand">American Express</span>');
    expect(amex).toContain('placeholder="1234"');
    // The brand sits in the label's row, before the field's wrapper.
    expect(amex).toMatch(
      />Card number<\/label><span aria-hidden="true"[^>]*>American Express<\/span><\/div><div class="relative">/,
    );
  });

  it('puts expiry and CVC on shared rows, so their inputs stay level when a label wraps or one has an error', () => {
    const html = render('', { expiry: { type: 'custom', message: 'Enter the expiry as MM / YY' } });
    expect(html).toContain(
      '<div class="grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] grid-rows-[auto_auto_auto] gap-x-3"><div class="grid gap-1.5 row-span-3 grid-rows-subgrid [&amp;&gt;label]:self-end">',
    );
    expect(html.match(/row-span-3 grid-rows-subgrid/g)).toHaveLength(2);
    expect(html).toMatch(
      /role="alert"[^>]*>Enter the expiry as MM \/ YY<\/p><\/div><div class="grid gap-1.5 row-span-3/,
    );
  });
});
