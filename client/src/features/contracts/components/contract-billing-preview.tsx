import type { ContractFigures } from '@shared/contract-figures';
import { formFigures } from '@shared/contracts/contract-form-figures';
import type { CountedFormLine, FormProductFacts } from '@shared/contracts/contract-form-values';
import type { Cents } from '@shared/money';
import { formatCentsMoney, formatDate } from '../lib/format';

/**
 * The contract form's "What it bills" (before tax), from the billing engine: the first invoice with its date,
 * the monthly and in-season amounts, each one-time charge at the price it bills, and the value over the term.
 * Nothing while the start date or the term is not valid.
 */
export function ContractBillingPreview({
  values,
  lines,
  options,
}: {
  values: { startDate: string; termMonths: string };
  lines: readonly CountedFormLine[];
  options: { packagePriceCents: Cents; setupFeeCents: Cents; productsById: Record<string, FormProductFacts> };
}) {
  const figures = formFigures(values, lines, options);
  if (!figures) return null;
  const flatCharges = figures.oneTimeCharges.filter((charge) => charge.kind === 'flat');
  return (
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
      <dt className={hint ? 'text-muted-foreground' : 'whitespace-nowrap'}>
        {label}
        {hint && <span className="block text-xs">{hint}</span>}
      </dt>
      <dd className="ml-auto whitespace-nowrap text-right font-medium tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}
