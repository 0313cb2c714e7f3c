import { useSearch } from 'wouter';
import { SetPasswordForm } from '@/features/auth/components/set-password-form';

/** /set-password?token=...: public, signed in or not (a portal invitation or a password reset). */
export default function SetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  return <SetPasswordForm token={token || null} />;
}
