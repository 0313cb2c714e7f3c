import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateWebhook,
  type CreateWebhookInput,
  createWebhookSchema,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointView,
} from '@shared/contracts/webhooks';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { labelClass } from '@/components/ui/styles';
import { toast } from '@/components/ui/use-toast';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { toastError } from '@/lib/toast-error';
import { useCreateWebhook } from '../api/create-webhook';
import { useUpdateWebhook } from '../api/update-webhook';

/**
 * "Add endpoint" and "Edit endpoint": the URL (HTTPS; HTTP only to localhost; the server refuses a private
 * address with its reason under the field), a description, and the events, with "Select all". A new
 * endpoint's secret is shown by the caller (onCreated).
 */
export function WebhookFormDialog({
  open,
  onOpenChange,
  endpoint,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The endpoint being edited; none: a new one. */
  endpoint: WebhookEndpointView | null;
  onCreated?: (endpoint: WebhookEndpointView) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <WebhookForm endpoint={endpoint} onDone={() => onOpenChange(false)} onCreated={onCreated} />
      </DialogContent>
    </Dialog>
  );
}

function WebhookForm({
  endpoint,
  onDone,
  onCreated,
}: {
  endpoint: WebhookEndpointView | null;
  onDone: () => void;
  onCreated?: (endpoint: WebhookEndpointView) => void;
}) {
  const form = useForm<CreateWebhookInput, unknown, CreateWebhook>({
    resolver: zodResolver(createWebhookSchema),
    defaultValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      events: endpoint?.events ?? [],
    },
  });
  const { errors } = form.formState;
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const busy = create.isPending || update.isPending;

  const onError = (error: unknown) => {
    showServerFieldErrors(form, error);
    toastError(endpoint ? 'Failed to save the endpoint' : 'Failed to add the endpoint', error);
  };
  const submit = form.handleSubmit((values) => {
    if (endpoint) {
      update.mutate(
        { id: endpoint.id, url: values.url, description: values.description ?? null, events: values.events },
        {
          onSuccess: () => {
            toast({ title: 'Endpoint saved' });
            onDone();
          },
          onError,
        },
      );
    } else {
      create.mutate(values, {
        onSuccess: (created) => {
          onDone();
          onCreated?.(created);
        },
        onError,
      });
    }
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
        description="Where to send events, and which ones. Each request is signed with the endpoint's secret (Standard Webhooks)."
      />
      <FormField
        label="Endpoint URL"
        error={errors.url?.message}
        hint="HTTPS, e.g. https://example.com/webhooks (HTTP only to localhost)."
      >
        <Input type="url" inputMode="url" autoComplete="off" placeholder="https://" {...form.register('url')} />
      </FormField>
      <FormField label="Description" error={errors.description?.message} hint="Optional: what receives the events.">
        <Input autoComplete="off" {...form.register('description')} />
      </FormField>
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => {
          const chosen = new Set(field.value as string[]);
          const all = WEBHOOK_EVENT_TYPES.every((type) => chosen.has(type));
          const toggle = (type: string, on: boolean) => {
            const next = new Set(chosen);
            if (on) next.add(type);
            else next.delete(type);
            field.onChange(WEBHOOK_EVENT_TYPES.filter((t) => next.has(t)));
          };
          return (
            <fieldset
              className="grid gap-2"
              aria-describedby={errors.events ? 'webhook-events-error' : undefined}
              aria-invalid={errors.events ? true : undefined}
            >
              <legend className={`${labelClass} mb-2`}>Events</legend>
              <label className="flex items-center gap-2 text-sm font-medium">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={all}
                  onChange={(event) => field.onChange(event.target.checked ? [...WEBHOOK_EVENT_TYPES] : [])}
                />
                Select all
              </label>
              <div className="grid gap-x-4 gap-y-2 border-t pt-2 sm:grid-cols-2">
                {WEBHOOK_EVENT_TYPES.map((type) => (
                  <label key={type} className="flex items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-0.5 size-4 shrink-0 accent-primary"
                      checked={chosen.has(type)}
                      onChange={(event) => toggle(type, event.target.checked)}
                    />
                    <span>
                      {WEBHOOK_EVENT_LABELS[type]}
                      <span className="block font-mono text-xs text-muted-foreground">{type}</span>
                    </span>
                  </label>
                ))}
              </div>
              {errors.events && (
                <p id="webhook-events-error" role="alert" className="text-sm font-medium text-destructive">
                  {errors.events.message ?? errors.events.root?.message}
                </p>
              )}
            </fieldset>
          );
        }}
      />
      <DialogFormButtons {...saveOrCreate(endpoint !== null, 'Add Endpoint')} busy={busy} onCancel={onDone} />
    </form>
  );
}
