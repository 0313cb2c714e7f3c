import { CheckCircle2 } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { buttonVariants } from '@/components/ui/button';
import { useCurrentUser } from '@/features/auth/api/me';
import { PaymentReceipt } from '@/features/payments/components/payment-receipt';
import { paths } from '@/lib/paths';

/**
 * /payment/success (ui-spec: "Payment Successful", the thank-you text, the contract id if present, "Return to
 * Dashboard" to /). With the checkout's token (new payments) it also names what was paid and offers the receipt
 * and the way back to the payer's own page (product.md section 17); without it (older links), ui-spec's page alone.
 * "Return to Dashboard" leads a signed-in client to its dashboard; for a pay-link payer without an account / is
 * the staff sign-in, so the receipt and "Back to your payment page" come first for them.
 */
export default function PaymentSuccessPage() {
  const search = new URLSearchParams(useSearch());
  const contract = search.get('contract');
  const checkout = search.get('checkout');
  const { user, isLoading } = useCurrentUser();
  const signedIn = user !== null;
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-8">
      <main className="w-full max-w-lg rounded-2xl border bg-white p-6 text-center shadow-lg sm:p-8">
        <CheckCircle2 className="mx-auto mb-4 size-14 text-green-600" aria-hidden />
        <h1 className="text-2xl font-semibold">Payment Successful</h1>
        <p className="mt-2 text-muted-foreground">Thank you for your payment. A receipt is on its way to your inbox.</p>
        {checkout && <PaymentReceipt token={checkout} primary={!isLoading && !signedIn} />}
        {contract && (
          <p className="mt-4 break-all text-sm">
            Contract ID: <span className="font-mono">{contract}</span>
          </p>
        )}
        <Link
          href={paths.dashboard}
          className={buttonVariants({
            variant: checkout && !signedIn ? 'ghost' : 'default',
            className: 'mt-6',
          })}
        >
          Return to Dashboard
        </Link>
      </main>
    </div>
  );
}
