import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@shared/contracts/auth';
import { type ProfileInput, profileSchema } from '@shared/contracts/settings';
import { ROLE_LABELS } from '@shared/roles';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useUpdateProfile } from '../api/update-profile';
import { SettingsCard } from './settings-card';

export function ProfileForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const form = useForm<ProfileInput>({
    resolver: zodResolver(profileSchema),
    defaultValues: { firstName: user.firstName, lastName: user.lastName, email: user.email },
  });
  const { errors } = form.formState;

  // Once the current user is refetched (after saving), the form starts from the stored values.
  useEffect(() => {
    form.reset({ firstName: user.firstName, lastName: user.lastName, email: user.email });
  }, [form, user.firstName, user.lastName, user.email]);

  return (
    <SettingsCard
      title="Profile"
      description="Your name and email address, as colleagues see them. You sign in with this email."
    >
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((values) =>
          update.mutate(values, { onError: (error) => showServerFieldErrors(form, error) }),
        )}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First Name" error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </FormField>
          <FormField label="Last Name" error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </FormField>
        </div>
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <p className="text-sm text-muted-foreground">
          Role: <span className="font-medium text-slate-900">{ROLE_LABELS[user.role] ?? user.role}</span>
        </p>
        <div>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
