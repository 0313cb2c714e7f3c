import { HandCoins } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

const RequestForm = lazy(() => import('./request-payout-form').then((m) => ({ default: m.RequestForm })));

/**
 * "Request Payout" (sales role, only when available is above 0): an amount of at most the available
 * commission. The input's max is the available amount; above it submit is disabled and the message shows.
 */
export function RequestPayoutButton({ available }: { available: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button onClick={() => setOpen(true)}>
        <HandCoins aria-hidden /> Request Payout
      </Button>
      <DialogContent>
        {open && (
          <Suspense
            fallback={
              <>
                <DialogTitle className="sr-only">Request Payout</DialogTitle>
                <Spinner label="Loading" />
              </>
            }
          >
            <RequestForm available={available} onDone={() => setOpen(false)} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
