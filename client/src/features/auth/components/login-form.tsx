import type { LoginInput } from '@shared/contracts/login';
import { Megaphone } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { FormField } from '@/components/ui/form-field';
import { buttonVariants, inputClass } from '@/components/ui/styles';
import { useLogin } from '../api/login';
import { SessionEndedNotice } from './session-ended-notice';

type Errors = Partial<Record<keyof LoginInput, string>>;
type Rules = typeof import('@shared/contracts/login');

// The shared login schema (shared/contracts/login.ts, with zod) loads when the user starts typing, or at the
// latest on the first "Sign In": the screen paints and sits idle without it (docs/decisions/017-performance.md).
let rules: Promise<Rules> | undefined;
const loadRules = () => {
  rules ??= import('@shared/contracts/login');
  return rules;
};

/**
 * The sign-in screen, the first thing a browser loads: two fields validated with the shared login schema
 * and its messages, without a form library, on plain elements styled as the Input and Button components
 * are. As the other forms do, it checks on submit, then again on every change, and focuses the first
 * invalid field. `onSignIn` is called when a valid sign-in is sent (the router starts loading the shell then).
 */
export function LoginForm({ onSignIn }: { onSignIn?: () => void }) {
  const login = useLogin();
  const [values, setValues] = useState<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [check, setCheck] = useState<Rules['loginErrors'] | null>(null);
  const fields = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  // The screen's one task starts in the e-mail field, unless the user has already moved the focus (e.g. F8
  // to the notifications region) while the screen was loading.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen mounts
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) fields.email.current?.focus();
  }, []);

  const change = (field: keyof LoginInput) => (event: { target: { value: string } }) => {
    void loadRules();
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (check) setErrors(check(next) ?? {});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { loginErrors } = await loadRules();
    setCheck(() => loginErrors);
    const found = loginErrors(values);
    setErrors(found ?? {});
    if (found) {
      fields[found.email ? 'email' : 'password'].current?.focus();
      return;
    }
    onSignIn?.();
    login.mutate({ email: values.email.trim(), password: values.password });
  };

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
        <SessionEndedNotice />
        <form className="grid gap-4" noValidate onSubmit={submit}>
          <FormField label="Email Address" error={errors.email}>
            <input
              ref={fields.email}
              className={inputClass}
              name="email"
              type="email"
              autoComplete="email"
              placeholder="you@company.com"
              value={values.email}
              onChange={change('email')}
            />
          </FormField>
          <FormField label="Password" error={errors.password}>
            <input
              ref={fields.password}
              className={inputClass}
              name="password"
              type="password"
              autoComplete="current-password"
              value={values.password}
              onChange={change('password')}
            />
          </FormField>
          <button type="submit" className={buttonVariants({ className: 'mt-2 w-full' })} disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign In'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">Need access? Contact your administrator.</p>
      </div>
    </div>
  );
}
