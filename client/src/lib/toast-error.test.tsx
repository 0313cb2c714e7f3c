import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type ToastItem, useToast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { toastError } from './toast-error';

let seen: ToastItem[] = [];
function Probe() {
  seen = useToast().toasts;
  return null;
}

/** The toasts on screen, as the toast store holds them (a component that reads it, rendered once). */
function shownToasts(): ToastItem[] {
  renderToStaticMarkup(<Probe />);
  return seen;
}

const serverSaid = (message: string) => new ApiError(409, message, { message });

describe('toastError', () => {
  it('shows a red toast with the title and the server’s message', () => {
    const id = toastError(
      'Failed to delete customer',
      serverSaid('This customer has 3 contracts and cannot be deleted'),
    );
    expect(shownToasts()).toEqual([
      {
        id,
        open: true,
        variant: 'destructive',
        title: 'Failed to delete customer',
        description: 'This customer has 3 contracts and cannot be deleted',
      },
    ]);
  });

  it('says "Please try again" when the error carries no message of the server', () => {
    toastError('Export failed', new Error('Failed to fetch'));
    expect(shownToasts()).toMatchObject([
      { variant: 'destructive', title: 'Export failed', description: 'Please try again' },
    ]);
    toastError('Export failed', new ApiError(500, 'Internal Server Error', null));
    expect(shownToasts()).toMatchObject([{ description: 'Please try again' }]);
  });

  it('says the given fallback instead, when the site has its own', () => {
    toastError('Login failed', new Error('offline'), 'Invalid email or password');
    expect(shownToasts()).toMatchObject([
      { variant: 'destructive', title: 'Login failed', description: 'Invalid email or password' },
    ]);
    toastError('Login failed', serverSaid('Too many attempts'), 'Invalid email or password');
    expect(shownToasts()).toMatchObject([{ description: 'Too many attempts' }]);
  });
});
