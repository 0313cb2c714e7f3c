import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginInput, loginSchema } from '@shared/contracts/auth';
import { Megaphone } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useLogin } from '../api/login';

export function LoginForm() {
  const login = useLogin();
  const form = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-br from-indigo-50 via-white to-slate-100 px-4">
      <div className="w-full max-w-md rounded-2xl border bg-white p-8 shadow-lg">
        <div className="mb-6 text-center">
          <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-primary text-white">
            <Megaphone className="size-6" aria-hidden />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">CRM Login</h1>
          <p className="mt-1 text-sm text-muted-foreground">Sign in to manage your advertising campaigns</p>
        </div>
        <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))}>
          <FormField label="Email Address" error={errors.email?.message}>
            <Input
              type="email"
              autoComplete="email"
              placeholder="you@company.com"
              autoFocus
              {...form.register('email')}
            />
          </FormField>
          <FormField label="Password" error={errors.password?.message}>
            <Input type="password" autoComplete="current-password" {...form.register('password')} />
          </FormField>
          <Button type="submit" className="mt-2 w-full" disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign In'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">Need access? Contact your administrator.</p>
      </div>
    </div>
  );
}
