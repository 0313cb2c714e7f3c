import { type Checkout, formatCardNumber, TEST_CARDS } from '@shared/contracts/checkout';
import { ArrowLeft, CheckCircle2, Clock } from 'lucide-react';
import { Link } from 'wouter';
import { buttonVariants } from '@/components/ui/button';
import { formatMoney } from '@/lib/format';
import { CheckoutForm } from './checkout-form';
import { PublicMessage } from './public-payment-shell';

/** The hosted checkout: the order summary beside the card form (stacked on phones), like Stripe Checkout. */
export function CheckoutView({ token, checkout }: { token: string; checkout: Checkout }) {
  if (checkout.status === 'completed') {
    return (
      <PublicMessage icon={<CheckCircle2 aria-hidden />} title="This checkout is already paid" tone="success">
        <p>Thank you — nothing more is due for it.</p>
        <Link href={checkout.redirectUrl ?? '/payment/success'} className={buttonVariants({ className: 'mt-5' })}>
          View confirmation
        </Link>
      </PublicMessage>
    );
  }
  if (checkout.status === 'expired') {
    return (
      <PublicMessage icon={<Clock aria-hidden />} title="This checkout has expired">
        <p>Start again from the payment page to pay what is due.</p>
        <a href={checkout.returnUrl} className={buttonVariants({ className: 'mt-5' })}>
          Back to the payment page
        </a>
      </PublicMessage>
    );
  }

  return (
    <div className="grid gap-5 md:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] md:gap-8">
      <section aria-labelledby="checkout-summary" className="md:pt-2">
        <a
          href={checkout.returnUrl}
          className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900"
        >
          <ArrowLeft className="size-4" aria-hidden /> Back
        </a>
        <p id="checkout-summary" className="text-sm font-medium text-slate-500">
          Pay {checkout.business.name}
        </p>
        <p
          className="mt-1 text-4xl font-semibold tracking-tight text-slate-900 tabular-nums"
          data-testid="checkout-amount"
        >
          {formatMoney(checkout.amount)}
        </p>
        <dl className="mt-5 grid gap-3 rounded-xl border bg-white p-4 text-sm shadow-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">For</dt>
            <dd className="text-right font-medium text-slate-900">{checkout.description}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Customer</dt>
            <dd className="min-w-0 text-right">
              <span className="block font-medium text-slate-900">{checkout.customer.name}</span>
              <span className="block truncate text-muted-foreground">{checkout.customer.email}</span>
            </dd>
          </div>
          <div className="flex justify-between gap-4 border-t pt-3 font-medium">
            <dt>Total due</dt>
            <dd className="tabular-nums">{formatMoney(checkout.amount)}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="checkout-card" className="rounded-2xl border bg-white p-5 shadow-sm sm:p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h1 id="checkout-card" className="text-lg font-semibold text-slate-900">
            Pay with card
          </h1>
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-800">
            Test mode
          </span>
        </div>
        <CheckoutForm token={token} amount={checkout.amount} autopayConsent={checkout.autopayConsent} />
        <div className="mt-5 rounded-lg bg-slate-50 p-3 text-xs text-slate-600">
          <p className="font-medium text-slate-700">Test cards</p>
          <p className="mt-1">
            <span className="font-mono">{formatCardNumber(TEST_CARDS.visa)}</span> succeeds;{' '}
            <span className="font-mono">{formatCardNumber(TEST_CARDS.declined)}</span> is declined. Use any future
            expiry date and any 3-digit CVC. No real card is ever charged here.
          </p>
        </div>
      </section>
    </div>
  );
}
