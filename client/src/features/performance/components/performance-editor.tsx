import { zodResolver } from '@hookform/resolvers/zod';
import { type PerformanceFormValues, performanceFormSchema } from '@shared/contracts/performance';
import { formatMonth } from '@shared/contracts/performance-vocabulary';
import { BarChart3, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useDeletePerformance } from '../api/delete-performance';
import { useContractPerformance } from '../api/get-contract-performance';
import { useSavePerformance } from '../api/save-performance';
import { FiguresTable } from './figures-table';

const currentMonth = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
};

/**
 * The contract page's performance figures: the months reported so far and, for staff who may change the
 * contract, a form to enter or correct a month (entering a month again replaces its figures).
 */
export function PerformanceEditor({
  contract,
  canWrite,
}: {
  contract: { id: string; status: string; startDate: string };
  canWrite: boolean;
}) {
  const { data, error } = useContractPerformance(contract.id);
  const save = useSavePerformance();
  const remove = useDeletePerformance();
  const [deleting, setDeleting] = useState<string | null>(null);
  const empty = { month: currentMonth(), impressions: Number.NaN, clicks: Number.NaN, views: Number.NaN };
  const form = useForm<PerformanceFormValues>({ resolver: zodResolver(performanceFormSchema), defaultValues: empty });
  const { errors } = form.formState;
  const rows = data?.rows ?? [];
  const editable = canWrite && contract.status !== 'draft';

  return (
    <Card className="min-w-0" data-testid="performance-editor">
      <CardHeader>
        <CardTitle>Performance</CardTitle>
        <CardDescription>Impressions, clicks and views per month, shown to the client in the portal</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {error && !data ? (
          <ErrorState title="Could not load the figures">Reload the page to try again.</ErrorState>
        ) : (
          <FiguresTable
            entries={rows}
            caption="Performance figures by month"
            loading={!data}
            sortable={data !== undefined && data.total <= rows.length}
            empty={
              <p className="flex flex-col items-center gap-2 py-4 text-center text-sm text-muted-foreground">
                <BarChart3 className="size-8" aria-hidden />
                No performance figures reported yet
              </p>
            }
            actions={
              editable
                ? (entry) => (
                    <>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() =>
                          form.reset({
                            month: entry.month,
                            impressions: entry.impressions,
                            clicks: entry.clicks,
                            views: entry.views,
                          })
                        }
                      >
                        <Pencil aria-hidden />
                        <span className="sr-only">Edit {formatMonth(entry.month)}</span>
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive hover:bg-red-50 hover:text-destructive"
                        onClick={() => setDeleting(entry.month)}
                      >
                        <Trash2 aria-hidden />
                        <span className="sr-only">Delete {formatMonth(entry.month)}</span>
                      </Button>
                    </>
                  )
                : undefined
            }
          />
        )}
        {canWrite && contract.status === 'draft' && (
          <p className="text-sm text-muted-foreground">Figures can be entered once the contract is sent or active.</p>
        )}
        {editable && (
          <form
            noValidate
            aria-label="Enter performance figures"
            className="grid gap-4 rounded-lg border bg-muted/30 p-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-start"
            onSubmit={form.handleSubmit(({ month, ...figures }) =>
              save.mutate(
                { contractId: contract.id, month, figures },
                {
                  onSuccess: () => form.reset(empty),
                  // A month the server refuses (after the current one, before the start) is shown on the field.
                  onError: (failure) => showServerFieldErrors(form, failure),
                },
              ),
            )}
          >
            <FormField label="Month" error={errors.month?.message}>
              <Input
                type="month"
                min={contract.startDate.slice(0, 7)}
                max={currentMonth()}
                {...form.register('month')}
              />
            </FormField>
            <FormField label="Impressions" error={errors.impressions?.message}>
              <Input
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                {...form.register('impressions', { valueAsNumber: true })}
              />
            </FormField>
            <FormField label="Clicks" error={errors.clicks?.message}>
              <Input
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                {...form.register('clicks', { valueAsNumber: true })}
              />
            </FormField>
            <FormField label="Views" error={errors.views?.message}>
              <Input
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                {...form.register('views', { valueAsNumber: true })}
              />
            </FormField>
            <div className="lg:pt-6">
              <Button type="submit" className="w-full" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save Figures'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete these figures?"
        description={
          deleting ? `The figures for ${formatMonth(deleting)} will no longer show in the client's portal.` : ''
        }
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate({ contractId: contract.id, month: deleting }, { onSettled: () => setDeleting(null) })
        }
      />
    </Card>
  );
}
