import type { BillingPortal } from '@shared/contracts/checkout';
import { Copy, ExternalLink } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';
import { toastError } from '@/lib/toast-error';
import { useOpenContractBillingPortal } from '../api/open-billing-portal';

/**
 * Customer Portal access on a portal-mode contract's Payment Info: with Stripe, a Stripe customer-portal session
 * for the contract's customer (this tab goes there and comes back to the contract); without it, the address of
 * the customer's own contract page in the portal, to copy and send (the customer signs in there, sees the
 * contract's invoices and pays them with Pay Now).
 */
export function CustomerPortalAccess({ contractId }: { contractId: string }) {
  const open = useOpenContractBillingPortal();
  const [portalPage, setPortalPage] = useState<string | null>(null);
  const linkId = useId();

  const onOpened = ({ url, provider }: BillingPortal) => {
    if (provider === 'stripe') window.location.assign(url);
    else setPortalPage(url);
  };
  const copy = async (url: string) => {
    try {
      await copyText(url);
      toast({ title: 'Portal link copied' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Could not copy the link',
        description: 'Select it and copy it by hand.',
      });
    }
  };

  return (
    <div className="grid gap-2 border-t pt-4 text-sm" data-testid="customer-portal-access">
      <p className="font-medium text-slate-900">Customer Portal access</p>
      {portalPage ? (
        <>
          <Label htmlFor={linkId} className="font-normal text-muted-foreground">
            The customer signs in at this address to see this contract's invoices and pay them.
          </Label>
          <Input
            id={linkId}
            readOnly
            value={portalPage}
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void copy(portalPage)}>
            <Copy aria-hidden /> Copy Link
          </Button>
        </>
      ) : (
        <>
          <p className="text-muted-foreground">Where the customer manages its payment details and pays its invoices.</p>
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={open.isPending}
            onClick={() =>
              open.mutate(contractId, {
                onSuccess: onOpened,
                onError: (error) => toastError('Could not open the customer portal', error),
              })
            }
          >
            <ExternalLink aria-hidden /> {open.isPending ? 'Opening...' : 'Open Customer Portal'}
          </Button>
        </>
      )}
    </div>
  );
}
