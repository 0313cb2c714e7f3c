import { zodResolver } from '@hookform/resolvers/zod';
import { dealLoseSchema } from '@shared/contracts/deals';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { usePipelineSettings } from '../api/get-pipeline-settings';

/** The deal being lost, and the lost stage it was dropped on (none: "Mark as lost" in its details). */
export type LosingDeal = { deal: { title: string }; stage?: { name: string } };

const reasonSchema = dealLoseSchema.pick({ reason: true });
type ReasonForm = { reason: string };

/**
 * "Why was it lost?": one of the pipeline settings' lost reasons, asked before a deal moves to a lost stage or is
 * marked as lost. Confirming hands the reason on; closing leaves the deal where it was.
 */
export function LostReasonDialog({
  losing,
  busy,
  onClose,
  onConfirm,
}: {
  losing: LosingDeal | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  return (
    <Dialog open={losing !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        {losing && <ReasonForm losing={losing} busy={busy} onClose={onClose} onConfirm={onConfirm} />}
      </DialogContent>
    </Dialog>
  );
}

function ReasonForm({
  losing,
  busy,
  onClose,
  onConfirm,
}: {
  losing: LosingDeal;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const settings = usePipelineSettings();
  const form = useForm<ReasonForm>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const reasons = settings.data?.lostReasons ?? [];
  return (
    <form noValidate className="grid gap-5" onSubmit={form.handleSubmit(({ reason }) => onConfirm(reason))}>
      <DialogFormHeader
        title="Why was it lost?"
        description={
          losing.stage
            ? `${losing.deal.title} moves to ${losing.stage.name}. Choose the reason it was lost.`
            : `${losing.deal.title} is closed as lost. Choose the reason it was lost.`
        }
      />
      {settings.isLoading ? (
        <Skeleton className="h-9" />
      ) : settings.error && !settings.data ? (
        <ErrorState title="Could not load the lost reasons">Close this and try again.</ErrorState>
      ) : (
        <Controller
          control={form.control}
          name="reason"
          render={({ field, fieldState }) => (
            <FormField label="Lost reason" error={fieldState.error?.message}>
              <SelectTriggerField value={field.value} onChange={field.onChange} reasons={reasons} />
            </FormField>
          )}
        />
      )}
      <DialogFormButtons
        label="Mark as lost"
        busyLabel="Saving..."
        busy={busy}
        destructive
        disabled={!settings.data}
        onCancel={onClose}
      />
    </form>
  );
}

/** The reasons of the settings; the id and aria props land on the trigger for FormField. */
function SelectTriggerField({
  value,
  onChange,
  reasons,
  ...trigger
}: {
  value: string;
  onChange: (value: string) => void;
  reasons: string[];
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger {...trigger}>
        <SelectValue placeholder="Choose a reason" />
      </SelectTrigger>
      <SelectContent>
        {reasons.map((reason) => (
          <SelectItem key={reason} value={reason}>
            {reason}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
