import type { Contract } from '@shared/contracts/contract-responses';
import { Copy, ExternalLink, Link2, Receipt } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { contractValueText } from '@/lib/contract-value';
import { useResendReceipt } from '../api/resend-receipt';
import { usePayLink } from '../hooks/use-pay-link';
import { formatDate, formatMoney, paymentModeLabel } from '../lib/format';
import { CustomerPortalAccess } from './customer-portal-access';

/** Payment info on the detail page: the figures, and the pay link or portal access by payment mode. */
export function PaymentInfoCard({ contract, canWrite }: { contract: Contract; canWrite: boolean }) {
  const payLink = usePayLink();
  const resend = useResendReceipt();
  const linkId = useId();
  const url = contract.payLinkUrl;
  const canResend = canWrite && (contract.status === 'active' || contract.status === 'completed');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Payment Info</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm" data-testid="payment-figures">
          <Figure label="Total" value={formatMoney(contract.total)} hint="lines, package and setup fee" strong />
          {contract.setupFee > 0 && <Figure label="Setup Fee" value={`${formatMoney(contract.setupFee)} one-time`} />}
          <Figure label="Payment Mode" value={paymentModeLabel(contract.paymentMode)} />
        </dl>
        <BillingFigures contract={contract} />

        {contract.paymentMode === 'pay_link' && (
          <div className="grid gap-2 border-t pt-4">
            {url ? (
              <>
                <Label htmlFor={linkId}>Payment link</Label>
                <Input
                  id={linkId}
                  readOnly
                  value={url}
                  className="font-mono text-xs"
                  onFocus={(event) => event.currentTarget.select()}
                />
                <div className="flex flex-wrap gap-2">
                  <Button variant="outline" size="sm" onClick={() => void payLink.copy(contract)}>
                    <Copy aria-hidden /> Copy Link
                  </Button>
                  <Button variant="outline" size="sm" asChild>
                    <a href={url} target="_blank" rel="noopener noreferrer">
                      <ExternalLink aria-hidden /> Preview
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>
                  </Button>
                </div>
              </>
            ) : (
              <>
                <p className="text-sm text-muted-foreground">No payment link has been created yet.</p>
                {canWrite && contract.status !== 'canceled' && contract.status !== 'completed' && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="justify-self-start"
                    disabled={payLink.generating}
                    onClick={() => void payLink.create(contract)}
                  >
                    <Link2 aria-hidden /> {payLink.generating ? 'Generating...' : 'Generate Payment Link'}
                  </Button>
                )}
              </>
            )}
          </div>
        )}

        {contract.paymentMode === 'portal' && contract.stripeCustomerId && (
          <CustomerPortalAccess contractId={contract.id} />
        )}

        {canResend && (
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={resend.isPending}
            onClick={() => resend.mutate(contract.id)}
          >
            <Receipt aria-hidden /> {resend.isPending ? 'Sending...' : 'Resend Receipt'}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * What the contract bills, from the billing engine (the API's figures): the first invoice with its date, the
 * regular and in-season monthly amounts, each one-time charge at the price it bills, the value over the term.
 */
function BillingFigures({ contract }: { contract: Contract }) {
  const first = contract.firstInvoice;
  const flatCharges = contract.oneTimeCharges.filter((charge) => charge.kind === 'flat');
  const value = contractValueText(contract);
  return (
    <section aria-labelledby={`billing-${contract.id}`} className="grid gap-2 border-t pt-4 text-sm">
      <h3 id={`billing-${contract.id}`} className="font-medium text-slate-900">
        What it bills
      </h3>
      <dl className="grid gap-2" data-testid="billing-figures">
        <Figure
          label="First invoice"
          value={formatMoney(first.total)}
          hint={`${first.number ? `${first.number}, ` : ''}${formatDate(first.periodStart)}, due ${formatDate(first.dueDate)}${first.tax > 0 ? `, with ${formatMoney(first.tax)} tax` : ''}`}
          testId="first-invoice"
        />
        {contract.monthlyAmount > 0 && (
          <Figure label="Monthly" value={`${formatMoney(contract.monthlyAmount)} / month`} testId="monthly-amount" />
        )}
        {contract.seasonalMonthlyAmount !== contract.monthlyAmount && (
          <Figure
            label="In season (Oct–Dec)"
            value={`${formatMoney(contract.seasonalMonthlyAmount)} / month`}
            className="rounded-md bg-orange-50 px-2 py-1 text-orange-900"
            testId="seasonal-amount"
          />
        )}
        {flatCharges.map((charge, index) => (
          <Figure
            key={`${charge.description}-${index}`}
            label={charge.description}
            value={`${formatMoney(charge.amount)} one-time`}
            hint={`on the ${formatDate(charge.billedOn)} invoice${charge.inSeason ? ', in-season price' : ''}`}
            testId="one-time-charge"
          />
        ))}
        <Figure
          label="Contract value"
          value={value.amount}
          hint={contract.termValue === null ? value.note : `${value.note}, before tax`}
          testId="term-value"
        />
      </dl>
    </section>
  );
}

function Figure({
  label,
  value,
  hint,
  strong,
  className,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  strong?: boolean;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${className ?? ''}`} data-testid={testId}>
      <dt className={strong ? 'font-semibold text-slate-900' : 'text-muted-foreground'}>
        {label}
        {hint && <span className="block text-xs font-normal text-muted-foreground">{hint}</span>}
      </dt>
      <dd className={`text-right tabular-nums ${strong ? 'text-base font-semibold text-slate-900' : ''}`}>{value}</dd>
    </div>
  );
}
