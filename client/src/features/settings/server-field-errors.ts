import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '@/lib/api-client';

/** Puts the server's per-field messages (fieldErrors) under the form's own fields; the toast carries the summary. */
export function showServerFieldErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown) {
  const fieldErrors = error instanceof ApiError ? error.body?.fieldErrors : undefined;
  if (!fieldErrors) return;
  const known = Object.keys(form.getValues());
  for (const [path, messages] of Object.entries(fieldErrors)) {
    if (known.includes(path) && messages[0]) form.setError(path as Path<T>, { message: messages[0] });
  }
}
