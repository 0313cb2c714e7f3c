import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { useRoute } from 'wouter';
import { Skeleton } from '@/components/ui/feedback';
import { useCheckout } from '@/features/payments/api/get-checkout';
import { CheckoutView } from '@/features/payments/components/checkout-view';
import { PublicPaymentPage } from '@/features/payments/components/public-payment-shell';

const INVALID = {
  title: CHECKOUT_MESSAGES.invalidCheckout,
  hint: 'Open the payment link from your e-mail again to start a new checkout.',
};

/** /checkout/{token}: the built-in hosted checkout (no sign-in). */
export default function CheckoutPage() {
  const [, params] = useRoute('/checkout/:token');
  const token = params?.token ?? '';
  return (
    <PublicPaymentPage
      query={useCheckout(token)}
      wide
      invalid={INVALID}
      skeleton={
        <div className="grid gap-5 md:grid-cols-2" aria-busy="true">
          <span className="sr-only" role="status">
            Loading
          </span>
          <Skeleton className="h-56 rounded-2xl" />
          <Skeleton className="h-80 rounded-2xl" />
        </div>
      }
    >
      {(checkout) => <CheckoutView token={token} checkout={checkout} />}
    </PublicPaymentPage>
  );
}
