import { zodResolver } from '@hookform/resolvers/zod';
import {
  MAX_LOST_REASONS,
  MAX_STAGES,
  STAGE_KIND_LABELS,
  STAGE_KINDS,
  STAGE_MILESTONE_LABELS,
  STAGE_MILESTONES,
  type StageKind,
  type StageMilestone,
} from '@shared/contracts/deal-vocabulary';
import {
  type PipelineSettings,
  type PipelineSettingsInput,
  type PipelineSettingsValues,
  pipelineSettingsSchema,
} from '@shared/contracts/deals';
import { ArrowDown, ArrowUp, Plus, Trash2, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller, type UseFormReturn, useFieldArray, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { usePipelineSettings } from '../api/get-pipeline-settings';
import { useUpdatePipelineSettings } from '../api/update-pipeline-settings';

type Form = UseFormReturn<PipelineSettingsInput, unknown, PipelineSettingsValues>;

/** The milestone select's value for a stage that follows no contract step. */
const NO_MILESTONE = 'none';

const toFormValues = (settings: PipelineSettings): PipelineSettingsInput => ({
  stages: settings.stages.map(({ id, name, probability, kind, milestone }) => ({
    id,
    name,
    probability,
    kind,
    milestone,
  })),
  lostReasons: [...settings.lostReasons],
  rottenDays: settings.rottenDays,
});

/**
 * The Settings screen's "Pipeline" tab (admins): the stages in order with their default probability, kind and the
 * contract step a stage follows; the reasons a lost deal chooses from; the days after which an open deal is stale.
 */
export function PipelineSettingsPanel() {
  const { data, isLoading, error } = usePipelineSettings();
  return (
    <Card className="max-w-4xl">
      <CardHeader className="pb-5">
        <CardTitle className="text-lg">Pipeline</CardTitle>
        <CardDescription>
          The stages a deal goes through, in order, each with the probability a deal in it is weighted by; why deals are
          lost; and when a deal without activity is marked stale.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && (
          <div className="grid gap-3" aria-busy="true" data-testid="settings-skeleton">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-9" />
            ))}
          </div>
        )}
        {error && !data && <ErrorState title="Could not load the pipeline settings" />}
        {data && <PipelineSettingsForm current={data} />}
      </CardContent>
    </Card>
  );
}

function PipelineSettingsForm({ current }: { current: PipelineSettings }) {
  const update = useUpdatePipelineSettings();
  const form = useForm<PipelineSettingsInput, unknown, PipelineSettingsValues>({
    resolver: zodResolver(pipelineSettingsSchema),
    defaultValues: toFormValues(current),
  });
  const stages = useFieldArray({ control: form.control, name: 'stages', keyName: 'key' });
  const { errors } = form.formState;
  const stagesMessage = errors.stages?.root?.message ?? errors.stages?.message;
  const id = useId();

  const addStage = () => {
    // A new stage is an open one, before the closing stages (won and lost).
    const values = form.getValues('stages');
    const firstClosed = values.findIndex((stage) => stage.kind !== 'open');
    stages.insert(firstClosed === -1 ? values.length : firstClosed, {
      id: null,
      name: '',
      probability: 50,
      kind: 'open',
      milestone: null,
    });
  };

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={form.handleSubmit((values) =>
        update.mutate(values, {
          onSuccess: (saved) => form.reset(toFormValues(saved)),
          onError: (error) => showServerFieldErrors(form, error),
        }),
      )}
    >
      <fieldset className="grid gap-3" aria-describedby={`${id}-stages`}>
        <legend className="mb-1 text-sm font-semibold text-slate-900">Stages</legend>
        <p id={`${id}-stages`} className="text-sm text-muted-foreground">
          In the order of the board. Keep at least one open stage, one won and one lost stage. A stage that follows a
          contract step is where a deal goes when its contract is drafted or sent.
        </p>
        {stagesMessage && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {stagesMessage}
          </p>
        )}
        <ol className="grid gap-3">
          {stages.fields.map((row, index) => (
            <StageRow
              key={row.key}
              form={form}
              index={index}
              count={stages.fields.length}
              onMove={(to) => stages.move(index, to)}
              onRemove={() => stages.remove(index)}
            />
          ))}
        </ol>
        <div>
          <Button variant="outline" size="sm" onClick={addStage} disabled={stages.fields.length >= MAX_STAGES}>
            <Plus aria-hidden /> Add stage
          </Button>
        </div>
      </fieldset>

      <div className="border-t pt-5">
        <Controller
          control={form.control}
          name="lostReasons"
          render={({ field }) => (
            <LostReasonsField
              reasons={field.value}
              onChange={field.onChange}
              error={
                errors.lostReasons?.message ??
                errors.lostReasons?.root?.message ??
                (Array.isArray(errors.lostReasons) ? errors.lostReasons.find(Boolean)?.message : undefined)
              }
            />
          )}
        />
      </div>

      <div className="border-t pt-5 sm:max-w-xs">
        <FormField
          label="Stale after (days)"
          error={errors.rottenDays?.message}
          hint="An open deal without activity for this many days is marked stale, from 1 to 365."
        >
          <Input type="number" inputMode="numeric" min={1} max={365} step={1} {...form.register('rottenDays')} />
        </FormField>
      </div>

      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Pipeline Settings'}
        </Button>
      </div>
    </form>
  );
}

function StageRow({
  form,
  index,
  count,
  onMove,
  onRemove,
}: {
  form: Form;
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const errors = form.formState.errors.stages?.[index];
  const name = form.watch(`stages.${index}.name`)?.trim() || `stage ${index + 1}`;
  return (
    <li data-testid="pipeline-stage-row">
      <fieldset className="grid items-start gap-3 rounded-lg border bg-slate-50/60 p-3 sm:grid-cols-[minmax(0,1fr)_6.5rem_8rem_10.5rem_auto]">
        <legend className="sr-only">Stage {index + 1}</legend>
        <FormField label="Name" error={errors?.name?.message}>
          <Input autoComplete="off" {...form.register(`stages.${index}.name`)} />
        </FormField>
        <FormField label="Probability (%)" error={errors?.probability?.message}>
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={1}
            {...form.register(`stages.${index}.probability`)}
          />
        </FormField>
        <Controller
          control={form.control}
          name={`stages.${index}.kind`}
          render={({ field }) => (
            <FormField label="Kind" error={errors?.kind?.message}>
              <PlainSelect
                value={field.value}
                onChange={(value) => field.onChange(value as StageKind)}
                options={STAGE_KINDS.map((kind) => ({ value: kind, label: STAGE_KIND_LABELS[kind] }))}
              />
            </FormField>
          )}
        />
        <Controller
          control={form.control}
          name={`stages.${index}.milestone`}
          render={({ field }) => (
            <FormField label="Follows" error={errors?.milestone?.message}>
              <PlainSelect
                value={field.value ?? NO_MILESTONE}
                onChange={(value) => field.onChange(value === NO_MILESTONE ? null : (value as StageMilestone))}
                options={[
                  { value: NO_MILESTONE, label: '—' },
                  ...STAGE_MILESTONES.map((milestone) => ({
                    value: milestone,
                    label: STAGE_MILESTONE_LABELS[milestone],
                  })),
                ]}
              />
            </FormField>
          )}
        />
        <div className="flex gap-1 sm:pt-[1.375rem]">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move ${name} up`}
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            <ArrowUp aria-hidden />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move ${name} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            <ArrowDown aria-hidden />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="text-muted-foreground hover:bg-red-50 hover:text-destructive"
            aria-label={`Remove ${name}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

/** The lost reasons as chips, each with its remove button, and a box to add one (Enter or "Add reason"). */
function LostReasonsField({
  reasons,
  onChange,
  error,
}: {
  reasons: string[];
  onChange: (reasons: string[]) => void;
  error?: string;
}) {
  const [draft, setDraft] = useState('');
  const id = useId();
  const add = () => {
    const reason = draft.trim();
    if (!reason) return;
    onChange([...reasons, reason]);
    setDraft('');
  };
  return (
    <fieldset className="grid gap-3" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-semibold text-slate-900">Lost reasons</legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        What a rep chooses from when a deal is lost, up to {MAX_LOST_REASONS}.
      </p>
      {reasons.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Lost reasons">
          {reasons.map((reason, index) => (
            <li
              key={`${reason}-${index}`}
              className="inline-flex items-center gap-1 rounded-full border bg-white py-0.5 pl-3 pr-1 text-sm"
            >
              {reason}
              <button
                type="button"
                aria-label={`Remove lost reason ${reason}`}
                onClick={() => onChange(reasons.filter((_, i) => i !== index))}
                className="rounded-full p-1 text-muted-foreground hover:bg-muted hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-end gap-2 sm:max-w-md">
        <FormField label="New lost reason" error={error} className="min-w-0 flex-1">
          <Input
            autoComplete="off"
            maxLength={100}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
        </FormField>
        <Button
          variant="outline"
          onClick={add}
          disabled={!draft.trim() || reasons.length >= MAX_LOST_REASONS}
          className={error ? 'mb-7' : undefined}
        >
          <Plus aria-hidden /> Add reason
        </Button>
      </div>
    </fieldset>
  );
}

/** A Radix select of a few fixed options; the id and aria props land on the trigger for FormField. */
function PlainSelect({
  value,
  onChange,
  options,
  ...trigger
}: {
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger {...trigger}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
