import { useRoute } from 'wouter';
import { InsertionOrderStep } from '@/features/insertion-orders/components/io-review';
import { PublicPaymentShell } from '@/features/payments/components/public-payment-shell';

/** /io/{token}: the customer's insertion order link (no sign-in): review, then accept or decline. */
export default function InsertionOrderPage() {
  const [, params] = useRoute('/io/:token');
  return (
    <PublicPaymentShell wide>
      <InsertionOrderStep token={params?.token ?? ''} headingLevel="h1" />
    </PublicPaymentShell>
  );
}
