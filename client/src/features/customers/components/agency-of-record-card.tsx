import type { AgencyOfRecord } from '@shared/contracts/agencies';
import type { Customer } from '@shared/contracts/customers';
import { Building2, Pencil, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useAgenciesOfRecord } from '../api/get-agencies-of-record';
import { useRemoveAgencyOfRecord } from '../api/remove-agency-of-record';
import { BILLING_MODE_SHORT, periodLabel } from '../format';

// The dialog loads the first time it opens (docs/decisions/017-performance.md): it brings the zod schema.
const AgencyOfRecordDialog = lazyWhen(
  () => import('./agency-of-record-dialog').then((module) => module.AgencyOfRecordDialog),
  (props) => props.open,
);

/** Editing: a period (Change), a new one (null: Set agency), or none (the dialog closed). */
type Editing = { period: AgencyOfRecord | null } | null;

/**
 * An advertiser's "Agency of record" (product.md section 20): the agency buying for it today, with its
 * commission, billing mode and dates, and the other periods (past and to come). Those who manage agencies of
 * record (`canManage`: managers; a rep for their own customers, the server answering 404 for others') set,
 * change and remove them.
 */
export function AgencyOfRecordCard({ customer, canManage }: { customer: Customer; canManage: boolean }) {
  const periods = useAgenciesOfRecord(customer.id);
  const remove = useRemoveAgencyOfRecord();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<AgencyOfRecord | null>(null);
  // A rep's view of another rep's customer: the periods are not theirs to read or change (404).
  const notTheirs = periods.error instanceof ApiError && periods.error.status === 404;
  const manages = canManage && !notTheirs;
  const current = customer.agencyOfRecord;
  const others = (periods.data ?? []).filter((period) => period.id !== current?.id);

  return (
    <Card data-testid="agency-of-record-card">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Building2 className="size-4 text-muted-foreground" aria-hidden /> Agency of record
          </CardTitle>
          <CardDescription>
            {current
              ? `New contracts are billed to ${current.agencyName} unless the form says otherwise.`
              : 'No agency buys for this advertiser today: it is billed itself.'}
          </CardDescription>
        </div>
        {manages && (
          <div className="flex flex-wrap gap-1.5">
            {current ? (
              <>
                <Button variant="outline" size="sm" onClick={() => setEditing({ period: current })}>
                  <Pencil aria-hidden /> Change
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-destructive hover:text-destructive"
                  onClick={() => setRemoving(current)}
                >
                  <Trash2 aria-hidden /> Remove
                </Button>
              </>
            ) : (
              <Button size="sm" onClick={() => setEditing({ period: null })}>
                <Plus aria-hidden /> Set agency
              </Button>
            )}
          </div>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        {current && <PeriodFacts period={current} />}
        {periods.isLoading && (
          <div aria-busy="true">
            <span className="sr-only">Loading the agencies of record</span>
            <Skeleton className="h-10" />
          </div>
        )}
        {periods.error && !notTheirs && (
          <ErrorState title="Could not load the agencies of record">Reload the page to try again.</ErrorState>
        )}
        {others.length > 0 && (
          <div className="grid gap-2">
            <h3 className="text-xs font-semibold uppercase tracking-wider text-muted-foreground">Other periods</h3>
            <ul className="grid divide-y text-sm" aria-label={`Other agencies of record of ${customer.name}`}>
              {others.map((period) => (
                <li key={period.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="grid gap-0.5">
                    <Link href={paths.customer(period.agencyId)} className="font-medium text-primary hover:underline">
                      {period.agencyName}
                    </Link>
                    <span className="text-muted-foreground">
                      {periodLabel(period.from, period.to, formatDate)} · {period.commissionPercent}% ·{' '}
                      {period.billingMode}
                    </span>
                  </span>
                  <span className="flex items-center gap-1.5">
                    {isUpcoming(period) ? <Badge tone="blue">Upcoming</Badge> : <Badge tone="grey">Ended</Badge>}
                    {manages && isUpcoming(period) && (
                      <>
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setEditing({ period })}
                          aria-label={`Change ${period.agencyName}'s period`}
                        >
                          <Pencil aria-hidden /> Change
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-destructive hover:text-destructive"
                          onClick={() => setRemoving(period)}
                          aria-label={`Remove ${period.agencyName}'s period`}
                        >
                          <Trash2 aria-hidden /> Remove
                        </Button>
                      </>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
      {manages && (
        <>
          <AgencyOfRecordDialog
            open={editing !== null}
            onOpenChange={(open) => !open && setEditing(null)}
            customerId={customer.id}
            customerName={customer.name}
            period={editing?.period ?? null}
          />
          <ConfirmDialog
            open={removing !== null}
            onOpenChange={(open) => !open && setRemoving(null)}
            title="Remove agency of record?"
            description={
              removing
                ? `${removing.agencyName} will no longer buy for ${customer.name}${
                    removing.from < todayText() ? ' from today; its past period is kept' : ''
                  }. Contracts already made keep their bill-to.`
                : null
            }
            confirmLabel={remove.isPending ? 'Removing...' : 'Remove'}
            busy={remove.isPending}
            onConfirm={() => {
              if (removing) remove.mutate(removing, { onSettled: () => setRemoving(null) });
            }}
          />
        </>
      )}
    </Card>
  );
}

function PeriodFacts({ period }: { period: AgencyOfRecord }) {
  return (
    <dl aria-label="Agency of record" className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      <Item label="Agency">
        <Link href={paths.customer(period.agencyId)} className="font-medium text-primary hover:underline">
          {period.agencyName}
        </Link>
      </Item>
      <Item label="Commission">{period.commissionPercent}%</Item>
      <Item label="Billing mode">{BILLING_MODE_SHORT[period.billingMode]}</Item>
      <Item label="Dates">{periodLabel(period.from, period.to, formatDate)}</Item>
    </dl>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-slate-900">{children}</dd>
    </div>
  );
}

/** The browser's calendar day (YYYY-MM-DD); the server decides with the business's. */
function todayText(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const isUpcoming = (period: AgencyOfRecord) => period.from > todayText();
