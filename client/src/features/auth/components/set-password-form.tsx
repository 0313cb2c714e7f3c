import { zodResolver } from '@hookform/resolvers/zod';
import { type SetPasswordFormValues, setPasswordFormSchema } from '@shared/contracts/invitations';
import { CheckCircle2, KeyRound, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { Button, buttonVariants } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useSetPassword } from '../api/set-password';

const EMPTY: SetPasswordFormValues = { password: '', confirmPassword: '' };

/**
 * The public screen a set-password link opens (a portal invitation or a password reset): the new password
 * twice, with the password form's rules. A used, expired or unknown link says so instead of the form.
 * Setting the password signs nobody in: the screen then leads to the sign-in screen.
 */
export function SetPasswordForm({ token }: { token: string | null }) {
  const submit = useSetPassword();
  const form = useForm<SetPasswordFormValues>({ resolver: zodResolver(setPasswordFormSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  // A refusal of the link itself (not of the password) ends the task: there is nothing to retry with this link.
  const fieldErrors = submit.error instanceof ApiError ? submit.error.body?.fieldErrors : undefined;
  const passwordRefused = Boolean(fieldErrors?.password || fieldErrors?.confirmPassword);
  const linkError =
    submit.error instanceof ApiError && !passwordRefused
      ? (submit.error.serverMessage ?? 'This link cannot be used. Ask for a new one.')
      : null;

  if (submit.isSuccess) {
    return (
      <Shell icon={<CheckCircle2 className="size-6" aria-hidden />} tone="success" title="Password set">
        <p role="status" className="text-center text-sm text-muted-foreground">
          {submit.data.message} Sign in with <span className="font-medium text-slate-900">{submit.data.email}</span> and
          your new password.
        </p>
        <SignInLink />
      </Shell>
    );
  }

  if (!token) {
    return (
      <Shell icon={<TriangleAlert className="size-6" aria-hidden />} tone="warning" title="Link not valid">
        <p role="alert" className="text-center text-sm text-muted-foreground">
          This address does not hold a set-password link. Open the whole link from the e-mail, or ask for a new one.
        </p>
        <SignInLink />
      </Shell>
    );
  }

  if (linkError) {
    return (
      <Shell icon={<TriangleAlert className="size-6" aria-hidden />} tone="warning" title="This link cannot be used">
        <p role="alert" className="text-center text-sm text-muted-foreground">
          {linkError}
        </p>
        <SignInLink />
      </Shell>
    );
  }

  return (
    <Shell
      icon={<KeyRound className="size-6" aria-hidden />}
      title="Set your password"
      subtitle="Choose the password you will sign in with. This link works once."
    >
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((values) =>
          submit.mutate(
            { token, ...values },
            {
              onSuccess: () => window.history.replaceState(null, '', paths.setPassword),
              // The server applies the same rules; should it still refuse a field, the field says why.
              onError: (error) => showServerFieldErrors(form, error),
            },
          ),
        )}
      >
        <FormField label="New Password" error={errors.password?.message} hint="At least 6 characters.">
          <Input type="password" autoComplete="new-password" autoFocus {...form.register('password')} />
        </FormField>
        <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        {submit.error && !(submit.error instanceof ApiError) && (
          <p role="alert" className="text-sm font-medium text-destructive">
            The password could not be set. Check your connection and try again.
          </p>
        )}
        <Button type="submit" className="mt-2 w-full" disabled={submit.isPending}>
          {submit.isPending ? 'Setting password...' : 'Set Password'}
        </Button>
      </form>
    </Shell>
  );
}

function SignInLink() {
  return (
    <Link href={paths.dashboard} className={buttonVariants({ className: 'mt-6 w-full' })}>
      Go to Sign In
    </Link>
  );
}

function Shell({
  icon,
  title,
  subtitle,
  tone = 'primary',
  children,
}: {
  icon: ReactNode;
  title: string;
  subtitle?: string;
  tone?: 'primary' | 'success' | 'warning';
  children: ReactNode;
}) {
  const iconTone = {
    primary: 'bg-primary text-white',
    success: 'bg-green-100 text-green-700',
    warning: 'bg-amber-100 text-amber-700',
  }[tone];
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-indigo-50 via-white to-slate-100 px-4">
      <div className="w-full max-w-md rounded-2xl border bg-white p-8 shadow-lg">
        <div className="mb-6 text-center">
          <div className={`mx-auto mb-4 flex size-12 items-center justify-center rounded-xl ${iconTone}`}>{icon}</div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {subtitle && <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p>}
        </div>
        {children}
      </div>
    </main>
  );
}
