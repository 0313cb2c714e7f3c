import type { ContractSummary } from '@shared/contracts/contract-responses';
import { CONTRACT_MESSAGES } from '@shared/contracts/contract-vocabulary';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';
import { toastError } from '@/lib/toast-error';
import { useGeneratePaymentLink } from '../api/generate-payment-link';

type PayLinkContract = Pick<ContractSummary, 'id' | 'payLinkUrl' | 'total' | 'setupFee'>;

/** Copy an existing pay link, or create one and copy it; both say what happened in a toast. */
export function usePayLink() {
  const generate = useGeneratePaymentLink();

  async function copy(contract: PayLinkContract) {
    if (!contract.payLinkUrl) return;
    try {
      await copyText(contract.payLinkUrl);
      toast({ title: 'Payment link copied', description: 'Paste it into an e-mail or message to the customer.' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Could not copy the link',
        description: contract.payLinkUrl,
      });
    }
  }

  async function create(contract: PayLinkContract) {
    if (Number(contract.total) === 0 && Number(contract.setupFee) === 0) {
      toast({
        variant: 'destructive',
        title: 'Cannot generate payment link',
        description: CONTRACT_MESSAGES.zeroAmountPayLink,
      });
      return;
    }
    let paymentUrl: string;
    try {
      ({ paymentUrl } = await generate.mutateAsync(contract.id));
    } catch (error) {
      toastError('Failed to generate payment link', error, 'There was an error generating the payment link.');
      return;
    }
    try {
      await copyText(paymentUrl);
      toast({ title: 'Payment link created and copied', description: paymentUrl });
    } catch {
      toast({ title: 'Payment link created', description: paymentUrl });
    }
  }

  return { copy, create, generating: generate.isPending };
}
