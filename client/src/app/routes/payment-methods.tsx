import { can } from '@shared/permissions';
import { useSearch } from 'wouter';
import { AccessDenied } from '@/components/ui/feedback';
import { useCurrentUser } from '@/features/auth/api/me';
import { PaymentMethodsScreen } from '@/features/payment-methods/components/payment-methods-screen';

/** /portal/payment-methods: the client's payment methods on file and its autopay (client accounts only). */
export default function PaymentMethodsPage() {
  const { user } = useCurrentUser();
  const returnedFromStripe = new URLSearchParams(useSearch()).get('saved') === 'stripe';
  if (!can(user, 'payment-method:self')) {
    return <AccessDenied message="Payment methods are only available for client accounts" />;
  }
  return <PaymentMethodsScreen returnedFromStripe={returnedFromStripe} />;
}
