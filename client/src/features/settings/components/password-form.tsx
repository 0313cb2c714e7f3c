import { zodResolver } from '@hookform/resolvers/zod';
import { type PasswordChangeInput, passwordChangeSchema } from '@shared/contracts/settings';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useChangePassword } from '../api/change-password';
import { SettingsCard } from './settings-card';

const EMPTY: PasswordChangeInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function PasswordForm({ email }: { email: string }) {
  const change = useChangePassword();
  const form = useForm<PasswordChangeInput>({ resolver: zodResolver(passwordChangeSchema), defaultValues: EMPTY });
  const { errors } = form.formState;

  return (
    <SettingsCard
      title="Change Password"
      description="Enter your current password, then the new one twice. Your other signed-in sessions will be signed out."
    >
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((values) =>
          change.mutate(values, {
            onSuccess: () => form.reset(EMPTY),
            onError: (error) => showServerFieldErrors(form, error),
          }),
        )}
      >
        {/* Lets password managers know whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <FormField label="Current Password" error={errors.currentPassword?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
        </FormField>
        <FormField label="New Password" error={errors.newPassword?.message} hint="At least 6 characters.">
          <Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
        </FormField>
        <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        <div>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing...' : 'Change Password'}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
