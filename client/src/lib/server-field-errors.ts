import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Puts the server's per-field messages (a 400's `fieldErrors`, keyed by path) under the form's own fields;
 * the toast carries the summary. A path the form has gets its first message; a nested one the form shows
 * as a whole ("lineItems.0.quantity") goes to its top-level field ("lineItems"). The one helper of every form.
 * `fieldOf` names the form's field for a path the API spells otherwise (the deal form's "prospectName" is the
 * API's "prospect.name"). Answers whether every field message found a field of the form (so a caller that
 * shows the error's message elsewhere too need not repeat it).
 */
export function showServerFieldErrors<T extends FieldValues>(
  // biome-ignore lint/suspicious/noExplicitAny: any form, whatever its context and output types
  form: UseFormReturn<T, any, any>,
  error: unknown,
  fieldOf: Readonly<Record<string, Path<T>>> = {},
): boolean {
  const fieldErrors = error instanceof ApiError ? error.body?.fieldErrors : undefined;
  if (!fieldErrors || Object.keys(fieldErrors).length === 0) return false;
  const known = new Set(Object.keys(form.getValues()));
  let placedAll = true;
  for (const [apiPath, messages] of Object.entries(fieldErrors)) {
    const path = fieldOf[apiPath] ?? apiPath;
    const field = known.has(path) ? path : path.split('.')[0];
    if (!known.has(field)) placedAll = false;
    else if (messages[0] && !form.getFieldState(field as Path<T>).error) {
      form.setError(field as Path<T>, { message: messages[0] });
    }
  }
  return placedAll;
}
