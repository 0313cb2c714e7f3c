import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { useRoute } from 'wouter';
import { Skeleton } from '@/components/ui/feedback';
import { usePayLink } from '@/features/payments/api/get-pay-link';
import { PayLinkView } from '@/features/payments/components/pay-link-view';
import { PublicPaymentPage } from '@/features/payments/components/public-payment-shell';

const INVALID = {
  title: CHECKOUT_MESSAGES.invalidPayLink,
  hint: 'Check that you opened the whole link from your e-mail, or ask us for a new one.',
};

/** /p/{token}: the public pay-link page (no sign-in). */
export default function PayLinkPage() {
  const [, params] = useRoute('/p/:token');
  const token = params?.token ?? '';
  return (
    <PublicPaymentPage
      query={usePayLink(token)}
      invalid={INVALID}
      skeleton={
        <div className="grid gap-5" aria-busy="true">
          <span className="sr-only" role="status">
            Loading
          </span>
          <Skeleton className="h-36 rounded-2xl" />
          <Skeleton className="h-64 rounded-2xl" />
        </div>
      }
    >
      {(data) => <PayLinkView token={token} data={data} />}
    </PublicPaymentPage>
  );
}
