import type { CheckoutReceipt, Receipt } from '@shared/contracts/checkout';
import { ArrowLeft, Download, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/feedback';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useCheckoutReceipt } from '../api/get-checkout-receipt';

/**
 * The success page's account of a checkout (product.md section 17), through the checkout's own token: the
 * invoices paid, the amount, the day and the card, that the receipt was e-mailed, the receipt's PDF, and the way
 * back to the payer's own page (the pay link's page, or the client's contract page). `primary` makes the download
 * the page's main action (a payer without a session, whose dashboard would be the staff sign-in).
 */
export function PaymentReceipt({ token, primary }: { token: string; primary: boolean }) {
  const { query, polling } = useCheckoutReceipt(token);
  if (query.isPending) {
    return (
      <div className="mt-6 grid gap-3" aria-busy="true">
        <span className="sr-only" role="status">
          Loading your receipt
        </span>
        <Skeleton className="h-32 rounded-xl" />
        <Skeleton className="mx-auto h-10 w-48 rounded-md" />
      </div>
    );
  }
  if (query.isError) {
    const unknown = query.error instanceof ApiError && query.error.status === 404;
    return (
      <p className="mt-6 rounded-lg border bg-slate-50 px-4 py-3 text-sm text-slate-700" role="status">
        {unknown
          ? 'The details of this payment could not be found from this address. Your receipt was e-mailed to you.'
          : 'The details of this payment could not be loaded right now. Your receipt was e-mailed to you.'}
      </p>
    );
  }
  const data = query.data;
  if (data.state === 'pending') {
    return (
      <div className="mt-6 grid gap-4">
        <p className="flex items-center justify-center gap-2 text-sm text-slate-700" role="status">
          {polling ? (
            <>
              <Loader2 className="size-4 animate-spin" aria-hidden /> Confirming your payment with the card processor...
            </>
          ) : (
            'Your payment is not confirmed yet. The receipt is e-mailed as soon as it is; you can close this page.'
          )}
        </p>
        <WayBack data={data} />
      </div>
    );
  }
  return (
    <div className="mt-6 grid gap-5">
      {data.receipt ? (
        <ReceiptFacts receipt={data.receipt} />
      ) : (
        <p className="text-sm text-slate-700" role="status">
          Your payment was received. The business will contact you about it.
        </p>
      )}
      <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:flex-wrap sm:justify-center">
        {data.pdfUrl && (
          <a
            href={data.pdfUrl}
            download
            className={buttonVariants({ variant: primary ? 'default' : 'outline' })}
            data-testid="receipt-pdf"
          >
            <Download aria-hidden /> Download receipt (PDF)
          </a>
        )}
        <WayBack data={data} />
      </div>
    </div>
  );
}

/**
 * Back to where the payer came from: the pay page of a pay link, the client's page of a portal contract, the portal
 * for a "Pay all due" (no one contract).
 */
function WayBack({ data }: { data: CheckoutReceipt }) {
  const href = data.payPageUrl ?? data.contractPageUrl;
  if (!href) return null;
  return (
    <a href={href} className={cn(buttonVariants({ variant: 'outline' }), 'justify-center')}>
      <ArrowLeft aria-hidden />{' '}
      {data.payPageUrl ? 'Back to your payment page' : data.contractId ? 'Back to your contract' : 'Back to the portal'}
    </a>
  );
}

function ReceiptFacts({ receipt }: { receipt: Receipt }) {
  const several = receipt.invoices.length > 1;
  return (
    <section aria-labelledby="receipt-heading" className="rounded-xl border bg-slate-50/70 p-4 text-left sm:p-5">
      <h2 id="receipt-heading" className="text-sm font-semibold text-slate-900">
        Your receipt
      </h2>
      <dl className="mt-3 grid gap-2 text-sm" data-testid="receipt-facts">
        <Row label={several ? 'Invoices' : 'Invoice'}>
          <span className="font-mono">{receipt.invoices.map((invoice) => invoice.number).join(', ')}</span>
        </Row>
        <Row label="Amount paid">
          <span className="font-semibold tabular-nums">{formatMoney(receipt.amount)}</span>
        </Row>
        <Row label="Date">{formatDate(receipt.paidOn)}</Row>
        <Row label="Paid with">{receipt.method}</Row>
        <Row label="For">{receipt.contractName}</Row>
        <Row label="Still due">
          <span className="tabular-nums">{formatMoney(receipt.amountDue)}</span>
        </Row>
      </dl>
      <p className="mt-3 text-xs text-muted-foreground">
        The receipt was e-mailed to <span className="break-words font-medium text-slate-700">{receipt.emailedTo}</span>.
      </p>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-right text-slate-900">{children}</dd>
    </div>
  );
}
