import { useRoute } from 'wouter';
import { usePaymentSetup } from '@/features/payment-methods/api/get-payment-setup';
import { PaymentSetupScreen } from '@/features/payment-methods/components/payment-setup-screen';

/** /setup/{token}: the public page where a customer saves a payment method for autopay (no sign-in). */
export default function PaymentSetupPage() {
  const [, params] = useRoute('/setup/:token');
  const token = params?.token ?? '';
  return <PaymentSetupScreen token={token} query={usePaymentSetup(token)} />;
}
