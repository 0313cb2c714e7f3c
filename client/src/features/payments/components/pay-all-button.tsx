import { CreditCard } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatMoney } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { useStartPayAllCheckout } from '../api/start-pay-all-checkout';

/**
 * "Pay all due ($2,450.00)" (product.md section 20): one payment for every invoice with something due, applied
 * oldest first; `amount` is the portal summary's total (the server charges what is due when the checkout opens).
 */
export function PayAllButton({ amount }: { amount: number }) {
  const pay = useStartPayAllCheckout();
  return (
    <Button
      size="sm"
      disabled={pay.isPending}
      onClick={() => pay.mutate(undefined, { onError: (error) => toastError('Payment could not be started', error) })}
    >
      <CreditCard aria-hidden /> {pay.isPending ? 'Opening...' : `Pay all due (${formatMoney(amount)})`}
    </Button>
  );
}
