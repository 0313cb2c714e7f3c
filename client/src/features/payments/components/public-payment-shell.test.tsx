import type { UseQueryResult } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { PublicPaymentPage } from './public-payment-shell';

type Page = { business: { name: string }; amount: number };

// The states a query can be in, as plain objects with the fields the page reads.
const pending = { isPending: true, isError: false, data: undefined, error: null };
const failed = (error: unknown) => ({ isPending: false, isError: true, data: undefined, error });
const loaded = (data: Page) => ({ isPending: false, isError: false, data, error: null });

function render(query: object, wide = false) {
  return renderToStaticMarkup(
    <PublicPaymentPage
      query={query as UseQueryResult<Page>}
      wide={wide}
      invalid={{ title: 'Link not found', hint: 'Ask us for a new link.' }}
      skeleton={<p>placeholder cards</p>}
    >
      {(data) => <p>page of {data.amount} cents</p>}
    </PublicPaymentPage>,
  );
}

describe('PublicPaymentPage', () => {
  it('shows the skeleton and a placeholder for the business name while loading, in the page width', () => {
    const html = render(pending, true);
    expect(html).toContain('placeholder cards');
    expect(html).toContain('animate-pulse');
    expect(html).toContain('max-w-4xl');
    expect(html).not.toContain('page of');
  });

  it('says the link is unknown on a 404, with what to do', () => {
    const html = render(failed(new ApiError(404, 'Not Found', { message: 'Not found' })));
    expect(html).toContain('Link not found');
    expect(html).toContain('Ask us for a new link.');
    expect(html).toContain('bg-red-100');
    expect(html).not.toContain('could not be loaded');
  });

  it('shows the server message on another failure, and a fallback when there is none', () => {
    const withMessage = render(failed(new ApiError(500, 'Server Error', { message: 'Payments are paused' })));
    expect(withMessage).toContain('This page could not be loaded');
    expect(withMessage).toContain('Payments are paused');
    expect(withMessage).not.toContain('Link not found');
    const offline = render(failed(new TypeError('Failed to fetch')));
    expect(offline).toContain('Please try again in a moment.');
  });

  it('shows the page in the frame of the business once loaded', () => {
    const html = render(loaded({ business: { name: 'Harbor Media' }, amount: 4998 }), true);
    expect(html).toContain('page of 4998 cents');
    expect(html).toContain('Harbor Media');
    expect(html).toContain('>HM<');
    expect(html).toContain('Secure payment');
  });
});
