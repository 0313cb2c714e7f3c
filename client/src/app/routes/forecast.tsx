import { can } from '@shared/permissions';
import { CalendarRange, Download, Pencil } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { AccessDenied, EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api/me';
import { useExportForecast } from '@/features/forecast/api/export-forecast';
import { useForecast } from '@/features/forecast/api/get-forecast';
import { ForecastChart } from '@/features/forecast/components/forecast-chart';
import { ForecastControls } from '@/features/forecast/components/forecast-controls';
import { ForecastTable, ForecastTableKey } from '@/features/forecast/components/forecast-table';
import { useForecastParams } from '@/features/forecast/hooks/use-forecast-params';
import { errorMessage } from '@/lib/api-client';
import { SELLER_ROLES, usePeopleOptions } from '@/lib/people-options';

// The targets dialog (its form and the money inputs) loads the first time a manager opens it.
const TargetsDialog = lazyWhen(
  () => import('@/features/forecast/components/targets-dialog').then((module) => module.TargetsDialog),
  (props) => props.open,
);

/**
 * The forecast (product.md section 19): for each of the next months, by rep, what is booked, the weighted pipeline
 * and the best case by the month the money lands, against the targets managers set; a rep sees their own row.
 */
export default function ForecastPage() {
  const { user } = useCurrentUser();
  const seesAll = can(user, 'deal:any');
  const allowed = seesAll || can(user, 'deal:own');
  const setsTargets = can(user, 'forecast:targets');
  const { params, update } = useForecastParams();
  const shown = seesAll ? params : { months: params.months };
  const forecast = useForecast(shown, { enabled: allowed });
  const owners = usePeopleOptions({ roles: SELLER_ROLES, enabled: allowed && seesAll });
  const exporter = useExportForecast();
  const [editing, setEditing] = useState(false);

  if (!allowed) return <AccessDenied message="You don't have permission to view the forecast" />;

  const data = forecast.data;
  const scope = !seesAll
    ? 'your deals and contracts'
    : shown.ownerId
      ? (data?.rows.find((row) => row.ownerId === shown.ownerId)?.ownerName ??
        owners.data?.find((owner) => owner.id === shown.ownerId)?.name ??
        'the rep chosen')
      : 'all reps';
  const editTargets = setsTargets && (
    <Button variant="outline" onClick={() => setEditing(true)}>
      <Pencil aria-hidden /> Edit targets
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Forecast"
        description="What is booked, the pipeline weighted by its chances and the best case, by the month the money lands, against each rep's target."
        actions={
          <>
            {editTargets}
            <Button
              variant="outline"
              disabled={exporter.isPending}
              onClick={() =>
                exporter.mutate(shown, {
                  onError: (error) =>
                    toast({ title: errorMessage(error, 'The export failed'), variant: 'destructive' }),
                })
              }
            >
              <Download aria-hidden /> {exporter.isPending ? 'Exporting...' : 'Export CSV'}
            </Button>
          </>
        }
      />

      <ForecastControls params={shown} onChange={update} reps={seesAll ? owners.data : null} />

      {forecast.error && !data ? (
        <ErrorState title="Could not load the forecast">Reload the page to try again.</ErrorState>
      ) : !data ? (
        <div className="grid gap-6" aria-busy="true" data-testid="forecast-loading">
          <Skeleton className="h-72 rounded-xl" />
          <Skeleton className="h-48 rounded-xl" />
        </div>
      ) : data.rows.length === 0 ? (
        <EmptyState icon={<CalendarRange />} title="No reps or deals yet">
          <p>Signed contracts, open deals with a close date or a flight, and targets show here by month.</p>
          {editTargets && <div className="mt-4">{editTargets}</div>}
        </EmptyState>
      ) : (
        <div className="grid min-w-0 gap-6" aria-busy={forecast.isFetching}>
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle>By month, {scope}</CardTitle>
              <CardDescription>Booked, with the weighted pipeline on top, against the target.</CardDescription>
            </CardHeader>
            <CardContent>
              <ForecastChart months={data.totals} scope={scope} />
            </CardContent>
          </Card>
          <div className="grid min-w-0 gap-2">
            <ForecastTableKey />
            <ForecastTable forecast={data} />
          </div>
        </div>
      )}

      {setsTargets && (
        <TargetsDialog
          open={editing}
          onOpenChange={setEditing}
          months={params.months}
          people={
            owners.isError ? [] : owners.data?.filter((owner) => owner.isActive).map(({ id, name }) => ({ id, name }))
          }
          repId={shown.ownerId}
        />
      )}
    </>
  );
}
