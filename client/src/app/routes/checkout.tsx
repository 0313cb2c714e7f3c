import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { LinkIcon } from 'lucide-react';
import { useRoute } from 'wouter';
import { Skeleton } from '@/components/ui/feedback';
import { useCheckout } from '@/features/payments/api/get-checkout';
import { CheckoutView } from '@/features/payments/components/checkout-view';
import { PublicMessage, PublicPaymentShell } from '@/features/payments/components/public-payment-shell';
import { ApiError, errorMessage } from '@/lib/api-client';

/** /checkout/{token}: the built-in hosted checkout (no sign-in). */
export default function CheckoutPage() {
  const [, params] = useRoute('/checkout/:token');
  const token = params?.token ?? '';
  const query = useCheckout(token);

  if (query.isPending) {
    return (
      <PublicPaymentShell wide loading>
        <div className="grid gap-5 md:grid-cols-2" aria-busy="true">
          <span className="sr-only" role="status">
            Loading
          </span>
          <Skeleton className="h-56 rounded-2xl" />
          <Skeleton className="h-80 rounded-2xl" />
        </div>
      </PublicPaymentShell>
    );
  }
  if (query.isError) {
    const invalid = query.error instanceof ApiError && query.error.status === 404;
    return (
      <PublicPaymentShell>
        <PublicMessage
          icon={<LinkIcon aria-hidden />}
          title={invalid ? CHECKOUT_MESSAGES.invalidCheckout : 'This page could not be loaded'}
          tone={invalid ? 'danger' : 'neutral'}
        >
          {invalid
            ? 'Open the payment link from your e-mail again to start a new checkout.'
            : errorMessage(query.error, 'Please try again in a moment.')}
        </PublicMessage>
      </PublicPaymentShell>
    );
  }
  return (
    <PublicPaymentShell businessName={query.data.business.name} wide>
      <CheckoutView token={token} checkout={query.data} />
    </PublicPaymentShell>
  );
}
