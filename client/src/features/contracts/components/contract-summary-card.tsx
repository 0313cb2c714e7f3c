import { type FormProductFacts, formTotals } from '@shared/contracts/contract-form-values';
import { computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import { NO_PACKAGE, termIssue } from '@shared/contracts/contract-vocabulary';
import { type Cents, parseMoney } from '@shared/money';
import { CalendarClock } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useWatch } from 'react-hook-form';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import type { ProductOption } from '../api/get-contract-options';
import { formatCentsMoney, formatDate } from '../lib/format';
import type { ContractForm } from './contract-form';

/** What the contract will bill, with the billing engine: loaded after the form has painted. */
const ContractBillingPreview = lazy(() =>
  import('./contract-billing-preview').then((module) => ({ default: module.ContractBillingPreview })),
);

/** The form's live figures (shared/contracts formTotals) and the term notice. */
export function ContractSummaryCard({
  form,
  products,
  packagePrice,
  countLines,
}: {
  form: ContractForm;
  products: ProductOption[];
  packagePrice: number;
  /** False while a chosen package hides the line items (they are not sent). */
  countLines: boolean;
}) {
  const [lineItems, setupFee, packageId, termMonths, startDate] = useWatch({
    control: form.control,
    name: ['lineItems', 'setupFee', 'packageId', 'termMonths', 'startDate'],
  });
  const hasPackage = Boolean(packageId) && packageId !== NO_PACKAGE;
  const productsById: Record<string, FormProductFacts> = {};
  for (const product of products) productsById[product.id] = product;
  const packagePriceCents = hasPackage ? (parseMoney(packagePrice) ?? 0) : 0;
  const totals = formTotals(
    { lineItems: countLines ? (lineItems ?? []) : [], setupFee: setupFee ?? '0' },
    { packagePriceCents },
  );
  // Charged once: the setup fee, or a flat-rate line (what each bills and when is in the billing preview).
  const chargesOnce =
    totals.setupFee > 0 || totals.counted.some((line) => productsById[line.productId]?.priceMetric === 'flat');

  const rows: [string, Cents, string?][] = [
    ['Line Items Total', totals.lineItemsTotal],
    ['Package Price', totals.packagePrice],
    ['Subtotal', totals.lineItemsTotal + totals.packagePrice],
    ['Setup Fee', totals.setupFee, 'one-time'],
  ];

  return (
    <Card aria-labelledby="contract-summary-heading">
      <CardHeader>
        <CardTitle id="contract-summary-heading">Summary</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm" data-testid="contract-summary">
          {rows.map(([label, cents, note]) => (
            <div key={label} className="flex items-baseline justify-between gap-4">
              <dt className="text-muted-foreground">
                {label}
                {note && <span className="ml-1 text-xs">({note})</span>}
              </dt>
              <dd className="tabular-nums text-slate-900">{formatCentsMoney(cents)}</dd>
            </div>
          ))}
          <div className="mt-1 flex items-baseline justify-between gap-4 border-t pt-3">
            <dt className="font-semibold text-slate-900">
              Total
              <span className="block text-xs font-normal text-muted-foreground">lines, package and setup fee</span>
            </dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid="summary-total">
              {formatCentsMoney(totals.total)}
              {!chargesOnce && <span className="text-sm font-normal text-muted-foreground"> / month</span>}
            </dd>
          </div>
        </dl>
        <Suspense fallback={<Skeleton className="h-40 w-full" aria-label="Loading what it bills" />}>
          <ContractBillingPreview
            values={{ startDate: startDate ?? '', termMonths: termMonths ?? '' }}
            lines={totals.counted}
            options={{ packagePriceCents, setupFeeCents: totals.setupFee, productsById }}
          />
        </Suspense>
        <p
          className="flex gap-2 rounded-md border border-yellow-200 bg-yellow-50 px-3 py-2 text-sm text-yellow-900"
          data-testid="term-notice"
        >
          <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{termNotice(termMonths ?? '', startDate ?? '')}</span>
        </p>
      </CardContent>
    </Card>
  );
}

function termNotice(termMonths: string, startDate: string): string {
  const text = termMonths.trim();
  if (text === '') return 'No end date: billing continues month to month until canceled.';
  const months = Number(text);
  if (termIssue(months)) return 'Enter a term from 1 to 120 months, or leave it blank for no end date.';
  const unit = months === 1 ? 'month' : 'months';
  const stop = /^\d{4}-\d{2}-\d{2}$/.test(startDate) ? computeAutoStopDate(startDate, months) : null;
  return stop
    ? `This contract runs for ${months} ${unit} (until ${formatDate(stop)}); payments pause automatically after that.`
    : `This contract runs for ${months} ${unit}; payments pause automatically after that.`;
}
