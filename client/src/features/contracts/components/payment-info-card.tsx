import type { Contract } from '@shared/contracts/contract-responses';
import { Copy, ExternalLink, Link2, Mail, Receipt } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useResendReceipt } from '../api/resend-receipt';
import { usePayLink } from '../hooks/use-pay-link';
import { formatMoney, paymentModeLabel } from '../lib/format';

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
          {contract.oneTimeAmount > 0 && (
            <>
              <Figure label="Monthly Amount" value={`${formatMoney(contract.monthlyAmount)} / month`} />
              {contract.setupFee > 0 && (
                <Figure label="Setup Fee" value={`${formatMoney(contract.setupFee)} one-time`} />
              )}
              {contract.oneTimeAmount > contract.setupFee && (
                <Figure
                  label="Flat-rate lines"
                  value={`${formatMoney(contract.oneTimeAmount - contract.setupFee)} one-time`}
                />
              )}
            </>
          )}
          <Figure
            label="Total"
            value={contract.oneTimeAmount > 0 ? formatMoney(contract.total) : `${formatMoney(contract.total)} / month`}
            strong
          />
          {contract.oneTimeAmount > 0 && (
            <div>
              <dt className="sr-only">How it is billed</dt>
              <dd className="text-xs text-muted-foreground">
                {contract.oneTimeAmount === contract.setupFee
                  ? `The first invoice is ${formatMoney(contract.firstInvoiceAmount)} (with the one-time setup fee); after that ${formatMoney(contract.monthlyAmount)} / month.`
                  : `Flat-rate lines are billed once, in the month their flight starts${contract.setupFee > 0 ? '; the setup fee on the first invoice' : ''}. After that ${formatMoney(contract.monthlyAmount)} / month.`}
              </dd>
            </div>
          )}
          {contract.seasonalMonthlyAmount !== contract.monthlyAmount && (
            <Figure
              label="In season (Oct–Dec)"
              value={`${formatMoney(contract.seasonalMonthlyAmount)} / month`}
              className="rounded-md bg-orange-50 px-2 py-1 text-orange-900"
            />
          )}
          <Figure label="Payment Mode" value={paymentModeLabel(contract.paymentMode)} />
        </dl>

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
          <div className="flex items-start gap-2 border-t pt-4 text-sm">
            <Mail className="mt-0.5 size-4 text-muted-foreground" aria-hidden />
            <p>
              <span className="font-medium text-slate-900">Customer Portal access: </span>
              <span className="text-muted-foreground">Contact customer portal feature coming soon</span>
            </p>
          </div>
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

function Figure({
  label,
  value,
  strong,
  className,
}: {
  label: string;
  value: string;
  strong?: boolean;
  className?: string;
}) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${className ?? ''}`}>
      <dt className={strong ? 'font-semibold text-slate-900' : 'text-muted-foreground'}>{label}</dt>
      <dd className={`text-right tabular-nums ${strong ? 'text-base font-semibold text-slate-900' : ''}`}>{value}</dd>
    </div>
  );
}
