import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { RENEWAL_MESSAGES, type RenewalDue } from '@shared/contracts/renewal-vocabulary';
import { RotateCw } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useRenewalsDue } from '../api/get-renewals-due';

/**
 * Renewing a contract: the contracts feature's mutation (its `mutate`, `isPending` and `variables`), handed down
 * by the dashboard page, which opens the new draft for editing once it is made.
 */
export type RenewAction = { mutate: (contractId: string) => void; isPending: boolean; variables?: string };

const daysLeftText = (days: number) => (days === 0 ? 'ends today' : days === 1 ? '1 day left' : `${days} days left`);

/**
 * "Renewals due" (product.md section 15): the running contracts whose term ends in the next 60 days, each
 * with "Renew" (a draft from its end date, opened for editing) or a link to the contract that renews it.
 */
export function RenewalsDueCard({ canRenew, renew }: { canRenew: boolean; renew: RenewAction }) {
  const due = useRenewalsDue();

  return (
    <Card aria-labelledby="renewals-due-title">
      <CardHeader>
        <CardTitle id="renewals-due-title">Renewals due</CardTitle>
      </CardHeader>
      <CardContent>
        {due.isLoading ? (
          <div className="grid gap-3">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-12" />
            ))}
          </div>
        ) : due.isError ? (
          <p role="alert" className="py-6 text-center text-sm text-destructive">
            {errorMessage(due.error, 'The renewals could not be loaded.')}{' '}
            <button type="button" className="font-medium underline" onClick={() => due.refetch()}>
              Try again
            </button>
          </p>
        ) : due.data?.rows.length ? (
          <ul className="divide-y" aria-label="Renewals due" data-testid="renewals-due">
            {due.data.rows.map((row) => (
              <RenewalRow
                key={row.id}
                row={row}
                canRenew={canRenew}
                pending={renew.isPending && renew.variables === row.id}
                busy={renew.isPending}
                onRenew={() => renew.mutate(row.id)}
              />
            ))}
          </ul>
        ) : (
          <p className="py-6 text-center text-sm text-muted-foreground">{RENEWAL_MESSAGES.emptyDue}</p>
        )}
      </CardContent>
    </Card>
  );
}

function RenewalRow({
  row,
  canRenew,
  pending,
  busy,
  onRenew,
}: {
  row: RenewalDue;
  canRenew: boolean;
  pending: boolean;
  busy: boolean;
  onRenew: () => void;
}) {
  const title = row.title || row.description || `Contract #${shortContractId(row.id, 6)}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
      <div className="min-w-0">
        <Link
          href={paths.contract(row.id)}
          className="block truncate font-medium text-slate-900 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {row.customerName ?? 'Unknown Customer'}
        </Link>
        <span className="block truncate text-xs text-muted-foreground">{title}</span>
        <span className="block text-xs text-muted-foreground">
          Ends {formatDate(row.autoStopDate)} · {daysLeftText(row.daysLeft)}
        </span>
      </div>
      <div className="flex shrink-0 items-center gap-3">
        <span className="tabular-nums" title="Term value">
          {formatMoney(row.termValue ?? row.monthlyAmount)}
        </span>
        {row.renewedBy ? (
          <Link href={paths.contract(row.renewedBy.id)} className="text-sm font-medium text-primary hover:underline">
            Renewed by {shortContractId(row.renewedBy.id, 6)}
          </Link>
        ) : canRenew ? (
          <Button
            size="sm"
            variant="outline"
            onClick={onRenew}
            disabled={busy}
            aria-label={`Renew ${title} for ${row.customerName ?? 'the customer'}`}
          >
            <RotateCw aria-hidden className={pending ? 'animate-spin' : undefined} /> Renew
          </Button>
        ) : null}
      </div>
    </li>
  );
}
