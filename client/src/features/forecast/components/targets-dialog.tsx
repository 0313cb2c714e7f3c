import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import { ApiError } from '@/lib/api-client';
import { forecastQueryOptions } from '../api/get-forecast';
import { useSaveTargets } from '../api/save-targets';
import { monthLabel } from '../lib/format';
import {
  type RepOption,
  repsOf,
  serverCellErrors,
  type TargetsFormState,
  type TargetsPayload,
  targetCells,
  targetsResolver,
} from '../lib/targets-form';

const TITLE = 'Edit targets';
const DESCRIPTION =
  'A target per rep and month, in dollars: attainment is what is booked as a share of it. Only the months you ' +
  'change are saved; empty a month to remove its target.';

/**
 * The managers' targets (`forecast:targets`): a rep at a time, a money input per month of the screen's months,
 * filled with the targets set now (everyone's, whatever rep the screen shows). Save sends the changed months only.
 */
export function TargetsDialog({
  open,
  onOpenChange,
  months,
  people,
  repId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** How many months from this one (the screen's choice). */
  months: number;
  /** The people who sell (undefined while they load). */
  people: RepOption[] | undefined;
  /** The rep shown first (the screen's filter), else the first by name. */
  repId?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <TargetsLoader months={months} people={people} repId={repId} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TargetsLoader({
  months,
  people,
  repId,
  onDone,
}: {
  months: number;
  people: RepOption[] | undefined;
  repId?: string;
  onDone: () => void;
}) {
  // Every rep's targets as they are now (asked again as the dialog opens), whichever rep the screen shows.
  const forecast = useQuery(forecastQueryOptions({ months }));
  if (forecast.data && people && (forecast.isFetchedAfterMount || forecast.error)) {
    const reps = repsOf(people, forecast.data);
    return (
      <TargetsForm
        reps={reps}
        initial={targetCells(reps, forecast.data.months, forecast.data)}
        repId={repId}
        onDone={onDone}
      />
    );
  }
  return (
    <>
      <DialogFormHeader title={TITLE} description={DESCRIPTION} />
      {forecast.error ? (
        <ErrorState title="Could not load the targets">Close this and try again.</ErrorState>
      ) : (
        <div className="grid gap-3 sm:grid-cols-3" aria-busy="true">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} className="h-14" />
          ))}
        </div>
      )}
    </>
  );
}

/** The form, from the reps and targets it opened with (a refetch behind it changes nothing typed). */
export function TargetsForm(props: {
  reps: RepOption[];
  initial: TargetsFormState['targets'];
  repId?: string;
  onDone: () => void;
}) {
  const { repId, onDone } = props;
  const [{ reps, initial, resolver }] = useState(() => ({
    reps: props.reps,
    initial: props.initial,
    resolver: targetsResolver(props.initial),
  }));
  const form = useForm<TargetsFormState, unknown, TargetsPayload>({ resolver, defaultValues: { targets: initial } });
  const [shown, setShown] = useState(() => reps.find((rep) => rep.id === repId)?.id ?? reps[0]?.id ?? '');
  const save = useSaveTargets();
  const { errors } = form.formState;
  const rep = reps.find((r) => r.id === shown);
  // The cells of the rep shown, in month order (the others keep what was typed in them).
  const cells = initial.flatMap((cell, index) => (cell.ownerId === shown ? [index] : []));
  // Messages only about reps not on screen bring the first of them up.
  const showFirst = (indexes: number[]) => {
    if (indexes.length && !indexes.some((index) => cells.includes(index))) setShown(initial[indexes[0]].ownerId);
  };

  const submit = form.handleSubmit(
    ({ body, cells: sent }) =>
      save.mutate(body, {
        onSuccess: onDone,
        onError: (error) => {
          const found = serverCellErrors(error instanceof ApiError ? error.body?.fieldErrors : undefined, sent);
          for (const [cell, message] of found) form.setError(`targets.${cell}.amount`, { message });
          showFirst(found.map(([cell]) => cell));
        },
      }),
    (invalid) => showFirst(initial.flatMap((_, index) => (invalid.targets?.[index]?.amount ? [index] : []))),
  );

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader title={TITLE} description={DESCRIPTION} />
      {reps.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No one sells yet: a user with the Sales Rep or Sales Manager role gets targets here.
        </p>
      ) : (
        <>
          {reps.length > 1 && (
            <div className="grid gap-1.5 sm:max-w-xs">
              <Label htmlFor="targets-rep">Rep</Label>
              <LazySelect
                id="targets-rep"
                value={shown}
                onValueChange={setShown}
                placeholder="Choose a rep"
                display={rep?.name}
                options={reps.map((r) => ({ value: r.id, label: r.name }))}
              />
            </div>
          )}
          <fieldset className="grid gap-3">
            <legend className={reps.length > 1 ? 'sr-only' : 'mb-3 text-sm font-medium'}>
              Targets of {rep?.name ?? 'the rep'} by month
            </legend>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {cells.map((index) => (
                <FormField
                  key={index}
                  label={`${monthLabel(initial[index].month)} ($)`}
                  error={errors.targets?.[index]?.amount?.message}
                >
                  <Input
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="No target"
                    {...form.register(`targets.${index}.amount`)}
                  />
                </FormField>
              ))}
            </div>
          </fieldset>
        </>
      )}
      {errors.root?.message && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errors.root.message}
        </p>
      )}
      <DialogFormButtons label="Save targets" busyLabel="Saving..." busy={save.isPending} onCancel={onDone} />
    </form>
  );
}
