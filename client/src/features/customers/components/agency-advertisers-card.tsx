import { Megaphone } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useAgencyAdvertisers } from '../api/get-agency-advertisers';
import { BILLING_MODE_SHORT, periodLabel } from '../format';
import { AgencyStatementCard } from './agency-statement-card';

/** The browser's calendar day (YYYY-MM-DD), to mark the periods current, ended or to come. */
function todayText(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * An agency's "Advertisers" (product.md section 20): every advertiser it represents or represented, with the
 * dates, commission and billing mode of each period, newest first. A rep sees it for their own agencies (the
 * server answers 404 for others'). Beside it, the agency's "Statement" card, for those who may read the agency.
 */
export function AgencyAdvertisersCard({ agencyId, agencyName }: { agencyId: string; agencyName: string }) {
  const { data, isLoading, error } = useAgencyAdvertisers(agencyId);
  const notTheirs = error instanceof ApiError && error.status === 404;
  const today = todayText();

  return (
    <>
      <Card data-testid="agency-advertisers-card">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Megaphone className="size-4 text-muted-foreground" aria-hidden /> Advertisers
          </CardTitle>
          <CardDescription>The advertisers {agencyName} buys for, and the terms of each period.</CardDescription>
        </CardHeader>
        <CardContent>
          {isLoading && (
            <div className="grid gap-3" aria-busy="true">
              <span className="sr-only">Loading the advertisers</span>
              <Skeleton className="h-12" />
              <Skeleton className="h-12" />
            </div>
          )}
          {notTheirs && (
            <p className="py-3 text-sm text-muted-foreground">The advertisers of this agency are not among yours.</p>
          )}
          {error && !notTheirs && (
            <ErrorState title="Could not load the advertisers">Reload the page to try again.</ErrorState>
          )}
          {data && data.length === 0 && (
            <p className="py-3 text-sm text-muted-foreground">
              No advertisers yet. Set this agency on an advertiser's page, under "Agency of record".
            </p>
          )}
          {data && data.length > 0 && (
            <ul className="grid divide-y text-sm" aria-label={`Advertisers of ${agencyName}`}>
              {data.map((period) => {
                const state =
                  period.from > today ? 'Upcoming' : period.to !== null && period.to < today ? 'Ended' : 'Current';
                return (
                  <li
                    key={period.id}
                    className="flex flex-wrap items-start justify-between gap-2 py-3 first:pt-0 last:pb-0"
                    data-testid="agency-advertiser-row"
                  >
                    <span className="grid gap-0.5">
                      <Link
                        href={paths.customer(period.advertiserId)}
                        className="font-medium text-primary hover:underline"
                      >
                        {period.advertiserName}
                      </Link>
                      <span className="text-muted-foreground">
                        {periodLabel(period.from, period.to, formatDate)} · {period.commissionPercent}% ·{' '}
                        {BILLING_MODE_SHORT[period.billingMode]}
                      </span>
                    </span>
                    <Badge tone={state === 'Current' ? 'green' : state === 'Upcoming' ? 'blue' : 'grey'}>{state}</Badge>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
      {!notTheirs && <AgencyStatementCard agencyId={agencyId} agencyName={agencyName} />}
    </>
  );
}
