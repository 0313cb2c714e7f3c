import type { Report } from '@shared/contracts/reports';
import { formatMoney } from '@/lib/format';

const invoicesText = (n: number) => `${n} ${n === 1 ? 'invoice' : 'invoices'}`;

/**
 * Autopay over the range (product.md section 18): the share of the invoices paid in it that autopay paid, with
 * what it collected, and what retries recovered after a first attempt failed.
 */
export function AutopayStats({ autopay }: { autopay: Report['autopay'] }) {
  if (autopay.paidInvoices === 0 && autopay.recoveredInvoices === 0) {
    return (
      <p className="py-6 text-center text-sm text-muted-foreground" data-testid="autopay-empty">
        No invoices paid in this range.
      </p>
    );
  }
  const share = autopay.autopayShare;
  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <dl className="text-sm">
          <div className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 gap-y-0.5">
            <dt className="text-muted-foreground">Paid by autopay</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid="autopay-share">
              {share === null ? '—' : `${share.toFixed(1)}%`}
            </dd>
            <dd className="col-span-2 text-xs text-muted-foreground" data-testid="autopay-paid">
              {autopay.autopayInvoices} of {autopay.paidInvoices} paid{' '}
              {autopay.paidInvoices === 1 ? 'invoice' : 'invoices'} · {formatMoney(autopay.autopayAmount)} collected
            </dd>
          </div>
        </dl>
        {share !== null && (
          <div className="h-1.5 rounded-full bg-slate-100" aria-hidden>
            <div
              className="h-1.5 rounded-full bg-emerald-500"
              style={{ width: `${Math.min(100, Math.max(share > 0 ? 2 : 0, share))}%` }}
            />
          </div>
        )}
      </div>
      <dl className="grid gap-0.5 text-sm">
        <dt className="text-muted-foreground">Recovered by retries</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="autopay-recovered">
          {formatMoney(autopay.recoveredAmount)}
        </dd>
        <dd className="text-xs text-muted-foreground" data-testid="autopay-recovered-invoices">
          {invoicesText(autopay.recoveredInvoices)} paid on a retry
        </dd>
      </dl>
    </div>
  );
}
