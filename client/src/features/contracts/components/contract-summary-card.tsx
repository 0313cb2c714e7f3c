import type { ContractFigures } from '@shared/contract-figures';
import { type FormProductFacts, formTotals } from '@shared/contracts/contract-form-values';
import { computeAutoStopDate } from '@shared/contracts/contract-lifecycle';
import { NO_PACKAGE, termIssue } from '@shared/contracts/contract-vocabulary';
import { type Cents, parseMoney } from '@shared/money';
import { CalendarClock } from 'lucide-react';
import { useWatch } from 'react-hook-form';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { ProductOption } from '../api/get-contract-options';
import { formatCentsMoney, formatDate } from '../lib/format';
import type { ContractForm } from './contract-form';

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
  const totals = formTotals(
    {
      lineItems: countLines ? (lineItems ?? []) : [],
      setupFee: setupFee ?? '0',
      startDate: startDate ?? '',
      termMonths: termMonths ?? '',
    },
    { packagePriceCents: hasPackage ? (parseMoney(packagePrice) ?? 0) : 0, productsById },
  );
  const figures = totals.figures;
  const flatCharges = figures?.oneTimeCharges.filter((charge) => charge.kind === 'flat') ?? [];

  const rows: [string, Cents, string?][] = [
    ['Line Items Total', totals.lineItemsTotal],
    ['Package Price', totals.packagePrice],
    ['Subtotal', figures?.monthlyCents ?? totals.lineItemsTotal + totals.packagePrice, 'per month'],
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
              {figures?.oneTimeCents === 0 && (
                <span className="text-sm font-normal text-muted-foreground"> / month</span>
              )}
            </dd>
          </div>
        </dl>
        {figures && (
          <section aria-labelledby="contract-billing-heading" className="grid gap-2 border-t pt-3 text-sm">
            <h3 id="contract-billing-heading" className="font-medium text-slate-900">
              What it bills <span className="text-xs font-normal text-muted-foreground">(before tax)</span>
            </h3>
            <dl className="grid gap-2" data-testid="summary-billing">
              <SummaryFigure
                label="First invoice"
                hint={`${formatDate(figures.firstInvoice.periodStart)}, due ${formatDate(figures.firstInvoice.dueDate)}`}
                value={formatCentsMoney(figures.firstInvoice.subtotalCents)}
                testId="summary-first-invoice"
              />
              <SummaryFigure
                label="Monthly"
                value={`${formatCentsMoney(figures.monthlyCents)} / month`}
                testId="summary-monthly"
              />
              {figures.seasonalMonthlyCents !== figures.monthlyCents && (
                <SummaryFigure
                  label="In season (Oct–Dec):"
                  value={`${formatCentsMoney(figures.seasonalMonthlyCents)} / month`}
                  className="rounded-md bg-orange-50 px-3 py-2 text-orange-900"
                  testId="summary-seasonal"
                />
              )}
              {flatCharges.map((charge, index) => (
                <SummaryFigure
                  key={`${charge.description}-${index}`}
                  label={charge.description || 'Flat-rate line'}
                  hint={`once, on the ${formatDate(charge.billedOn)} invoice${charge.seasonal ? ', in-season price' : ''}`}
                  value={formatCentsMoney(charge.amountCents)}
                  testId="summary-one-time"
                />
              ))}
              <SummaryFigure label="Contract value" {...contractValue(figures)} testId="summary-value" />
            </dl>
          </section>
        )}
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

/** The value over the term, or for an indefinite contract its monthly amount (or its one-time charges only). */
function contractValue(figures: ContractFigures): { value: string; hint: string } {
  if (figures.termValueCents !== null)
    return { value: formatCentsMoney(figures.termValueCents), hint: 'over the term' };
  if (figures.monthlyCents === 0) return { value: formatCentsMoney(figures.oneTimeCents), hint: 'one-time' };
  return { value: `${formatCentsMoney(figures.monthlyCents)} / month`, hint: 'no end date: billed per month' };
}

function SummaryFigure({
  label,
  hint,
  value,
  className,
  testId,
}: {
  label: string;
  hint?: string;
  value: string;
  className?: string;
  testId: string;
}) {
  return (
    <div className={`flex flex-wrap items-baseline justify-between gap-x-4 ${className ?? ''}`} data-testid={testId}>
      <dt className={hint ? 'text-muted-foreground' : 'whitespace-nowrap text-muted-foreground'}>
        {label}
        {hint && <span className="block text-xs">{hint}</span>}
      </dt>
      <dd className="ml-auto whitespace-nowrap text-right font-medium tabular-nums text-slate-900">{value}</dd>
    </div>
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
