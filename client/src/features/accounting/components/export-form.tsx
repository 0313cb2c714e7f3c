import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AccountingExportInput,
  type AccountingExportRequest,
  accountingExportRequestSchema,
} from '@shared/contracts/accounting';
import {
  ACCOUNTING_FORMAT_HINTS,
  ACCOUNTING_FORMAT_LABELS,
  ACCOUNTING_FORMATS,
  type AccountingFormat,
} from '@shared/contracts/accounting-vocabulary';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { countLabel, todayIso } from '@/lib/format';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateExport } from '../api/create-export';
import { ChoiceSelect } from './choice-select';

/** Last month, the usual range to hand to the books: its first and last day. */
export function lastMonth(today: string): { from: string; to: string } {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 2, 1));
  const last = new Date(Date.UTC(year, month - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/**
 * "New export": a range of days and a format, checked by the same schema as the route (messages under the
 * fields); a refusal (no account codes, nothing new in the range) is said above the button.
 */
export function ExportForm() {
  const create = useCreateExport();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<AccountingExportInput, unknown, AccountingExportRequest>({
    resolver: zodResolver(accountingExportRequestSchema),
    defaultValues: { ...lastMonth(todayIso()), format: 'xero-invoices' },
  });
  const { errors } = form.formState;
  const format = form.watch('format') as AccountingFormat;

  const submit = form.handleSubmit((values) => {
    setRefusal(null);
    create.mutate(values, {
      onSuccess: (batch) =>
        toast({
          title: `${batch.number} made`,
          description:
            batch.parts.length > 1
              ? `${ACCOUNTING_FORMAT_LABELS[batch.format]}: ${countLabel(batch.documentCount, false, 'document', 'documents')} in ${batch.parts.length} parts. Download them from the list.`
              : `${ACCOUNTING_FORMAT_LABELS[batch.format]}: ${countLabel(batch.documentCount, false, 'document', 'documents')}. Download it from the list.`,
        }),
      onError: (error) => {
        showServerFieldErrors(form, error);
        setRefusal(errorMessage(error, 'The export could not be made. Please try again.'));
      },
    });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="New export">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[10rem_10rem_minmax(0,16rem)]">
        <FormField label="From" error={errors.from?.message}>
          <Input type="date" {...form.register('from')} />
        </FormField>
        <FormField label="To" error={errors.to?.message}>
          <Input type="date" {...form.register('to')} />
        </FormField>
        <Controller
          control={form.control}
          name="format"
          render={({ field }) => (
            <FormField label="Format" error={errors.format?.message}>
              <ChoiceSelect
                choices={ACCOUNTING_FORMATS}
                labels={ACCOUNTING_FORMAT_LABELS}
                value={field.value}
                onChange={field.onChange}
              />
            </FormField>
          )}
        />
      </div>
      {ACCOUNTING_FORMAT_HINTS[format] && (
        <p className="text-sm text-muted-foreground">{ACCOUNTING_FORMAT_HINTS[format]}</p>
      )}
      {refusal && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {refusal}
        </p>
      )}
      <div>
        <Button type="submit" disabled={create.isPending}>
          <FileDown aria-hidden /> {create.isPending ? 'Making export...' : 'Make Export'}
        </Button>
      </div>
    </form>
  );
}
