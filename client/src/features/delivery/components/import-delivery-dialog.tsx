import type { DeliveryImportResult } from '@shared/contracts/delivery';
import { DELIVERY_MESSAGES, IMPORT_COLUMNS, MAX_IMPORT_BYTES } from '@shared/contracts/delivery-vocabulary';
import { CheckCircle2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { toastError } from '@/lib/toast-error';
import { useImportDelivery } from '../api/import-delivery';
import { importErrors, importSummary } from '../lib/import-summary';

const SAMPLE = `${IMPORT_COLUMNS.join(',')}\n9c1e4b7a,"Pre-roll Impressions (15s, CPM)",2026-03,142500,2150\n9c1e4b7a,Lower-third Overlay,2026-03,88000,`;

/** What each column holds, for the dialog's explanation. */
const COLUMN_HELP: [string, string][] = [
  ['contract', "the contract's id, or its 8-character short id"],
  ['line', "the line's id, or its product name"],
  ['month', 'YYYY-MM: the billing period that starts in that month'],
  ['impressions', 'the impressions delivered in the period'],
  ['clicks', 'optional: the clicks, left empty when not reported'],
];

type Refusal = { message: string; rows: string[] };

/**
 * Records delivery for many CPM periods at once from a CSV file. The server checks the whole file first:
 * one bad row and nothing is applied, and every bad row is listed here with its reason.
 */
export function ImportDeliveryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-w-xl">{open && <ImportForm onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}

function ImportForm({ onDone }: { onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [result, setResult] = useState<DeliveryImportResult | null>(null);
  const upload = useImportDelivery();

  const choose = (next: File | null) => {
    setFile(next);
    setRefusal(null);
    setResult(null);
    setProblem(
      next && next.size > MAX_IMPORT_BYTES
        ? DELIVERY_MESSAGES.tooLarge
        : next && next.size === 0
          ? DELIVERY_MESSAGES.emptyFile
          : null,
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem('Choose a CSV file to import');
    if (problem) return;
    setRefusal(null);
    let text: string;
    try {
      text = await file.text();
    } catch {
      return setProblem('The file could not be read');
    }
    upload.mutate(text, {
      onSuccess: (answer) => {
        setResult(answer);
        toast({ title: 'Delivery imported', description: importSummary(answer) });
      },
      onError: (error) => {
        if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
          setRefusal({
            message: error.serverMessage ?? 'The file was not imported',
            rows: importErrors(error.body?.fieldErrors),
          });
        } else {
          toastError('Import failed', error);
        }
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} className="grid min-w-0 gap-4">
      <DialogFormHeader
        title="Import Delivery"
        description="Record delivered impressions of CPM lines for many periods at once. Every row is checked first: if one is wrong, nothing is imported."
      />
      <div className="grid gap-2 text-sm">
        <p className="text-slate-700">A CSV file with a header row and these columns:</p>
        <dl className="grid gap-1">
          {COLUMN_HELP.map(([column, help]) => (
            <div key={column} className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-2">
              <dt className="font-mono text-xs leading-5 text-slate-900">{column}</dt>
              <dd className="text-muted-foreground">{help}</dd>
            </div>
          ))}
        </dl>
        <p className="text-slate-700">For example:</p>
        <pre className="overflow-x-auto rounded-md bg-muted/60 px-3 py-2 font-mono text-xs text-slate-800">
          {SAMPLE}
        </pre>
        <p className="text-xs text-muted-foreground">
          A value that holds a comma goes in double quotes, as in the first row. A period under-delivered is settled at
          once by its contract's remedy (a credit note or makegood impressions), and its figures are then locked.
        </p>
      </div>
      <FormField label="CSV file" error={problem ?? undefined}>
        <input
          type="file"
          accept=".csv,text/csv"
          disabled={upload.isPending}
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
          className="block w-full min-w-0 cursor-pointer rounded-md border border-dashed border-input bg-muted/30 p-3 text-sm text-slate-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-primary file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-primary-foreground hover:bg-muted/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60"
        />
      </FormField>
      {refusal && (
        <div
          role="alert"
          className="grid gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
          data-testid="import-errors"
        >
          <p className="font-medium">{refusal.message}</p>
          {refusal.rows.length > 0 && (
            <ul className="grid max-h-48 list-disc gap-0.5 overflow-y-auto pl-5" aria-label="Rows with errors">
              {refusal.rows.map((row, index) => (
                <li key={index} className="break-words">
                  {row}
                </li>
              ))}
            </ul>
          )}
          <p className="text-xs">Nothing was imported. Correct the file and import it again.</p>
        </div>
      )}
      {result ? (
        <>
          <p
            role="status"
            className="flex items-start gap-2 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
            data-testid="import-result"
          >
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
            {importSummary(result)}
          </p>
          <DialogFooter>
            <Button onClick={onDone}>Done</Button>
          </DialogFooter>
        </>
      ) : (
        <DialogFormButtons
          label="Import"
          busyLabel="Importing..."
          busy={upload.isPending}
          onCancel={onDone}
          disabled={!file || Boolean(problem)}
        />
      )}
    </form>
  );
}
