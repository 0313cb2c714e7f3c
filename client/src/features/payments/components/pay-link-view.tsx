import type { FirstPayment, PayLink, PayLinkInvoice } from '@shared/contracts/checkout';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { CheckCircle2, CreditCard, FileX2, Info } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { useStartPayLinkCheckout } from '../api/start-pay-link-checkout';
import { PublicMessage } from './public-payment-shell';

/** The pay-link page's body: who pays whom for what, what is due now, and the Pay button. */
export function PayLinkView({ token, data }: { token: string; data: PayLink }) {
  const contractName =
    data.contract.title || data.contract.description || `Contract #${shortContractId(data.contract.id)}`;

  return (
    <div className="grid gap-5">
      <section className="rounded-2xl border bg-white p-5 shadow-sm sm:p-6" aria-labelledby="pay-link-heading">
        <p className="text-sm text-muted-foreground">Payment to {data.business.name}</p>
        <h1 id="pay-link-heading" className="mt-1 text-xl font-semibold text-slate-900 sm:text-2xl">
          {contractName}
        </h1>
        {data.contract.title && data.contract.description && (
          <p className="mt-1 text-sm text-slate-600">{data.contract.description}</p>
        )}
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-muted-foreground">Customer</dt>
            <dd className="font-medium text-slate-900">{data.customer.name}</dd>
            {data.customer.company && data.customer.company !== data.customer.name && (
              <dd className="text-muted-foreground">{data.customer.company}</dd>
            )}
          </div>
          <div>
            <dt className="text-muted-foreground">Start date</dt>
            <dd className="font-medium text-slate-900">{formatDate(data.contract.startDate)}</dd>
          </div>
        </dl>
      </section>

      {data.state === 'due' ? (
        <DueCard token={token} data={data} />
      ) : data.state === 'nothing_due' ? (
        <PublicMessage icon={<CheckCircle2 aria-hidden />} title="Nothing is due right now" tone="success">
          {data.message} Thank you — we will e-mail you when your next invoice is ready.
        </PublicMessage>
      ) : (
        <PublicMessage icon={<FileX2 aria-hidden />} title="No payment is possible">
          {data.message}
        </PublicMessage>
      )}
    </div>
  );
}

function DueCard({ token, data }: { token: string; data: PayLink }) {
  const start = useStartPayLinkCheckout();
  const pay = () =>
    start.mutate(token, {
      onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
    });
  const busy = start.isPending || start.isSuccess;

  return (
    <section className="rounded-2xl border bg-white shadow-sm" aria-labelledby="due-heading">
      <div className="border-b px-5 py-4 sm:px-6">
        <h2 id="due-heading" className="font-semibold text-slate-900">
          {data.firstPayment ? 'Your first invoice' : data.invoices.length === 1 ? 'Invoice due' : 'Invoices due'}
        </h2>
        {data.firstPayment && (
          <p className="mt-0.5 text-sm text-muted-foreground">
            Service period {formatDate(data.firstPayment.periodStart)} – {formatDate(data.firstPayment.periodEnd)}. Your
            contract starts when this payment is received.
          </p>
        )}
      </div>

      <div className="px-5 py-4 sm:px-6">
        {data.firstPayment ? (
          <FirstPaymentLines first={data.firstPayment} />
        ) : (
          <InvoiceLines invoices={data.invoices} />
        )}
      </div>

      <div className="grid gap-3 border-t bg-slate-50/70 px-5 py-4 sm:px-6">
        <div className="flex items-baseline justify-between gap-3">
          <span className="font-medium text-slate-700">Total due now</span>
          <span className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="total-due">
            {formatMoney(data.totalDue)}
          </span>
        </div>
        {start.isError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {errorMessage(start.error, 'The checkout could not be opened. Please try again.')}
          </p>
        )}
        <Button size="lg" className="w-full text-base" onClick={pay} disabled={busy}>
          <CreditCard aria-hidden />
          {busy ? 'Opening secure checkout...' : `Pay ${formatMoney(data.totalDue)}`}
        </Button>
        <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
          <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          You will enter your card on a secure checkout page. A receipt is e-mailed after payment.
        </p>
      </div>
    </section>
  );
}

function InvoiceLines({ invoices }: { invoices: PayLinkInvoice[] }) {
  return (
    <ul className="divide-y" aria-label="Invoices due">
      {invoices.map((invoice) => (
        <li
          key={invoice.id}
          className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3 first:pt-0 last:pb-0"
        >
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              <span className="font-mono text-sm">{invoice.number}</span>
              {invoice.overdue ? (
                <Badge tone="red">Overdue</Badge>
              ) : invoice.status === 'failed' ? (
                <Badge tone="red">Payment failed</Badge>
              ) : null}
            </p>
            <p className="text-sm text-muted-foreground">
              {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)} · due {formatDate(invoice.dueDate)}
            </p>
            {invoice.amountPaid > 0 && (
              <p className="text-xs text-muted-foreground">
                {formatMoney(invoice.total)} total, {formatMoney(invoice.amountPaid)} already paid
              </p>
            )}
          </div>
          <span className="font-semibold tabular-nums text-slate-900">{formatMoney(invoice.amountDue)}</span>
        </li>
      ))}
    </ul>
  );
}

function FirstPaymentLines({ first }: { first: FirstPayment }) {
  return (
    <div className="grid gap-3">
      <ul className="divide-y" aria-label="Invoice lines">
        {first.lines.map((line, index) => (
          <li key={index} className="flex items-start justify-between gap-4 py-2.5 first:pt-0">
            <div className="min-w-0">
              <p className="font-medium text-slate-900">{line.description}</p>
              <p className="text-xs text-muted-foreground">
                {line.quantity} × {formatMoney(line.unitPrice)}
                {line.discount > 0 && ` − ${formatMoney(line.discount)} discount`}
                {line.seasonal && ' · holiday season price'}
              </p>
            </div>
            <span className="tabular-nums text-slate-900">{formatMoney(line.amount)}</span>
          </li>
        ))}
      </ul>
      {(first.tax > 0 || first.taxRate > 0) && (
        <dl className="grid gap-1 border-t pt-3 text-sm">
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Subtotal</dt>
            <dd className="tabular-nums">{formatMoney(first.subtotal)}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-muted-foreground">
              {first.taxLabel} ({first.taxRate}%{first.taxIncluded ? ', included' : ''})
            </dt>
            <dd className="tabular-nums">{formatMoney(first.tax)}</dd>
          </div>
          <div className="flex justify-between font-medium">
            <dt>Total</dt>
            <dd className="tabular-nums">{formatMoney(first.total)}</dd>
          </div>
        </dl>
      )}
    </div>
  );
}
