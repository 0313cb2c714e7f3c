import type { PayLink } from '@shared/contracts/checkout';
import { CHECKOUT_MESSAGES } from '@shared/contracts/checkout';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useRoute } from 'wouter';
import { Skeleton } from '@/components/ui/feedback';
import { payLinkQueryKey, usePayLink } from '@/features/payments/api/get-pay-link';
import { PayLinkView } from '@/features/payments/components/pay-link-view';
import { PublicPaymentPage } from '@/features/payments/components/public-payment-shell';

// The insertion order step loads only for a contract that still has one to sign.
const InsertionOrderStep = lazy(() =>
  import('@/features/insertion-orders/components/io-review').then((m) => ({ default: m.InsertionOrderStep })),
);

const INVALID = {
  title: CHECKOUT_MESSAGES.invalidPayLink,
  hint: 'Check that you opened the whole link from your e-mail, or ask us for a new one.',
};

const skeleton = (
  <div className="grid gap-5" aria-busy="true">
    <span className="sr-only" role="status">
      Loading
    </span>
    <Skeleton className="h-36 rounded-2xl" />
    <Skeleton className="h-64 rounded-2xl" />
  </div>
);

/**
 * A sent contract's first payment waits for its insertion order (product.md section 15): the newest version,
 * when it is not accepted yet, comes before the invoice and the Pay button.
 */
const needsSignature = (data: PayLink) =>
  data.firstPayment !== null && data.insertionOrder !== null && data.insertionOrder.status !== 'accepted';

/** /p/{token}: the public pay-link page (no sign-in). */
export default function PayLinkPage() {
  const [, params] = useRoute('/p/:token');
  const token = params?.token ?? '';
  const queryClient = useQueryClient();
  return (
    <PublicPaymentPage query={usePayLink(token)} invalid={INVALID} skeleton={skeleton}>
      {(data) =>
        needsSignature(data) && data.insertionOrder ? (
          <Suspense fallback={skeleton}>
            <div className="grid gap-3">
              <p className="text-sm font-medium text-slate-600">
                Step 1 of 2: review and sign the insertion order. Payment comes next.
              </p>
              <InsertionOrderStep
                token={data.insertionOrder.token}
                onAccepted={() => queryClient.invalidateQueries({ queryKey: payLinkQueryKey(token) })}
              />
            </div>
          </Suspense>
        ) : data.firstPayment !== null && data.insertionOrder?.status === 'accepted' ? (
          <div className="grid gap-3">
            <p className="text-sm font-medium text-slate-600">
              Step 2 of 2: the insertion order is signed. Pay your first invoice to start your contract.
            </p>
            <PayLinkView token={token} data={data} />
          </div>
        ) : (
          <PayLinkView token={token} data={data} />
        )
      }
    </PublicPaymentPage>
  );
}
