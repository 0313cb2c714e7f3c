import { zodResolver } from '@hookform/resolvers/zod';
import {
  API_KEY_ROLES,
  API_KEY_SCOPE_HINTS,
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@shared/contracts/api-key-vocabulary';
import { type CreateApiKey, type CreateApiKeyInput, createApiKeySchema } from '@shared/contracts/api-keys';
import { ROLE_LABELS } from '@shared/roles';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogFormButtons, DialogFormHeader } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { OptionSelect } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { toastError } from '@/lib/toast-error';
import { useCreateApiKey } from '../api/create-api-key';

/**
 * "New API Key": name, access and an optional last day; then the key itself, shown this once with a copy
 * button. The dialog's content is mounted afresh each time it opens.
 */
export function CreateApiKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <CreateApiKeySteps onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CreateApiKeySteps({ onDone }: { onDone: () => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return created ? (
    <ShowSecret created={created} onDone={onDone} />
  ) : (
    <KeyForm onCreated={setCreated} onCancel={onDone} />
  );
}

function KeyForm({ onCreated, onCancel }: { onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const form = useForm<CreateApiKeyInput, unknown, CreateApiKey>({
    resolver: zodResolver(createApiKeySchema),
    defaultValues: { name: '', scope: 'read', role: null, expiresOn: '' },
  });
  const { errors } = form.formState;
  const create = useCreateApiKey();
  const scope = form.watch('scope') as ApiKeyScope;

  const submit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: onCreated,
      onError: (error) => {
        showServerFieldErrors(form, error);
        toastError('Failed to create the API key', error);
      },
    }),
  );

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title="New API Key"
        description="A key for one of the business's other systems, with only the access it needs."
      />
      <FormField label="Name" error={errors.name?.message} hint="What uses the key, e.g. “Ad server”.">
        <Input autoComplete="off" {...form.register('name')} />
      </FormField>
      <Controller
        control={form.control}
        name="scope"
        render={({ field }) => (
          <FormField label="Access" error={errors.scope?.message} hint={API_KEY_SCOPE_HINTS[scope]}>
            <OptionSelect
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                if (value !== 'role') form.setValue('role', null);
              }}
              options={API_KEY_SCOPES.map((value) => [value, API_KEY_SCOPE_LABELS[value]])}
            />
          </FormField>
        )}
      />
      {scope === 'role' && (
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <FormField label="Role" error={errors.role?.message}>
              <OptionSelect
                value={field.value ?? ''}
                onChange={field.onChange}
                placeholder="Choose a role"
                options={API_KEY_ROLES.map((role) => [role, ROLE_LABELS[role]])}
              />
            </FormField>
          )}
        />
      )}
      <FormField
        label="Expires on"
        error={errors.expiresOn?.message}
        hint="The last day the key works. Leave empty for a key that does not expire."
      >
        <Input type="date" {...form.register('expiresOn')} />
      </FormField>
      <DialogFormButtons label="Create Key" busyLabel="Creating..." busy={create.isPending} onCancel={onCancel} />
    </form>
  );
}

function ShowSecret({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const copy = () =>
    copyText(created.secret).then(
      () => toast({ title: 'API key copied', description: 'Paste it into the system that will use it.' }),
      () => toast({ variant: 'destructive', title: 'Could not copy', description: 'Select the key and copy it.' }),
    );
  return (
    <div className="grid gap-5">
      <DialogFormHeader
        title="Copy your new API key"
        description={`This is the only time the key “${created.name}” is shown: only a fingerprint of it is kept. Store it in the system that will use it.`}
      />
      <div className="flex items-center gap-2">
        <Input
          readOnly
          aria-label="New API key"
          value={created.secret}
          className="font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" variant="outline" onClick={copy}>
          <Copy aria-hidden />
          Copy
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">
        Send it as{' '}
        <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">Authorization: Bearer {created.hint}</code>
      </p>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
