import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { LinkIcon } from 'lucide-react';
import { useRoute } from 'wouter';
import { Skeleton } from '@/components/ui/feedback';
import { usePayLink } from '@/features/payments/api/get-pay-link';
import { PayLinkView } from '@/features/payments/components/pay-link-view';
import { PublicMessage, PublicPaymentShell } from '@/features/payments/components/public-payment-shell';
import { ApiError, errorMessage } from '@/lib/api-client';

/** /p/{token}: the public pay-link page (no sign-in). */
export default function PayLinkPage() {
  const [, params] = useRoute('/p/:token');
  const token = params?.token ?? '';
  const query = usePayLink(token);

  if (query.isPending) {
    return (
      <PublicPaymentShell loading>
        <div className="grid gap-5" aria-busy="true">
          <span className="sr-only" role="status">
            Loading
          </span>
          <Skeleton className="h-36 rounded-2xl" />
          <Skeleton className="h-64 rounded-2xl" />
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
          title={invalid ? CHECKOUT_MESSAGES.invalidPayLink : 'This page could not be loaded'}
          tone={invalid ? 'danger' : 'neutral'}
        >
          {invalid
            ? 'Check that you opened the whole link from your e-mail, or ask us for a new one.'
            : errorMessage(query.error, 'Please try again in a moment.')}
        </PublicMessage>
      </PublicPaymentShell>
    );
  }
  return (
    <PublicPaymentShell businessName={query.data.business.name}>
      <PayLinkView token={token} data={query.data} />
    </PublicPaymentShell>
  );
}
