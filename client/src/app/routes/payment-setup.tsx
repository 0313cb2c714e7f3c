import { useRoute, useSearch } from 'wouter';
import { usePaymentSetup } from '@/features/payments/api/get-payment-setup';
import { PaymentSetupScreen } from '@/features/payments/components/payment-setup-screen';

/** /setup/{token}: the public page where a customer saves a payment method for autopay (no sign-in). */
export default function PaymentSetupPage() {
  const [, params] = useRoute('/setup/:token');
  const token = params?.token ?? '';
  const returnedFromStripe = new URLSearchParams(useSearch()).get('saved') === 'stripe';
  return <PaymentSetupScreen token={token} query={usePaymentSetup(token)} returnedFromStripe={returnedFromStripe} />;
}
