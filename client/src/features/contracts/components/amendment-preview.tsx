import type { AmendmentNextInvoice, AmendmentPreview } from '@shared/contracts/contract-responses';
import { formatDate, formatMoney } from '../lib/format';

const nextInvoiceText = (invoice: AmendmentNextInvoice | null) =>
  invoice ? `${formatMoney(invoice.total)} on ${formatDate(invoice.periodStart)}` : 'None';

/** "$310.00 → $510.00", or the one amount when it does not change. */
function Change({ from, to }: { from: string; to: string }) {
  if (from === to) return <span className="tabular-nums">{to} (unchanged)</span>;
  return (
    <span className="tabular-nums">
      <span className="text-muted-foreground">{from}</span>
      <span aria-hidden> → </span>
      <span className="sr-only">becomes </span>
      <span className="font-medium text-slate-900">{to}</span>
    </span>
  );
}

/**
 * What an amendment will bill, as the server worked it out by doing the amendment and undoing it: each
 * prorated charge or credit the next invoice carries, the next invoice, and the monthly amounts after.
 */
export function AmendmentPreviewPanel({ preview }: { preview: AmendmentPreview }) {
  return (
    <section
      aria-label="What this changes"
      data-testid="amendment-preview"
      className="grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
    >
      <h3 className="font-medium text-slate-900">What this changes</h3>
      {preview.adjustments.length === 0 ? (
        <p data-testid="preview-no-adjustment" className="text-muted-foreground">
          No charge or credit: no invoiced month is affected.
        </p>
      ) : (
        <ul className="grid gap-1">
          {preview.adjustments.map((a) => (
            <li key={a.description} data-testid="preview-adjustment" className="flex justify-between gap-3">
              <span className="min-w-0">
                <span className="block text-xs text-muted-foreground">
                  {a.amount >= 0 ? 'Charged' : 'Credited'} on the next invoice
                </span>
                {a.description}
              </span>
              <span className="whitespace-nowrap font-medium tabular-nums">{formatMoney(a.amount)}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Next invoice</dt>
        <dd data-testid="preview-next-invoice">
          <Change from={nextInvoiceText(preview.currentNextInvoice)} to={nextInvoiceText(preview.nextInvoice)} />
        </dd>
        <dt className="text-muted-foreground">Monthly</dt>
        <dd data-testid="preview-monthly">
          <Change from={formatMoney(preview.currentMonthlyAmount)} to={formatMoney(preview.monthlyAmount)} />
        </dd>
        <dt className="text-muted-foreground">In season (Oct–Dec)</dt>
        <dd data-testid="preview-seasonal">
          <Change
            from={formatMoney(preview.currentSeasonalMonthlyAmount)}
            to={formatMoney(preview.seasonalMonthlyAmount)}
          />
        </dd>
      </dl>
    </section>
  );
}
