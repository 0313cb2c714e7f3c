import { z } from 'zod/mini';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../email';

/**
 * The sign-in form and POST /api/auth/login. Written with zod/mini (the same rules and messages as the
 * `emailAddress` of contracts/common.ts): the login page is the first thing a browser loads, and the mini
 * build is a fraction of zod's size (docs/decisions/017-performance.md).
 */
const EMAIL_MESSAGE = 'Please enter a valid email address';

export const loginSchema = z.object({
  email: z
    .string({ error: EMAIL_MESSAGE })
    .check(z.trim(), z.maxLength(MAX_EMAIL_LENGTH, EMAIL_MESSAGE), z.regex(EMAIL_PATTERN, EMAIL_MESSAGE)),
  password: z
    .string({ error: 'Password is required' })
    .check(z.minLength(1, 'Password is required'), z.maxLength(200, 'Password is too long')),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Each field's first message, for the form; null when the input is valid. */
export function loginErrors(input: unknown): Partial<Record<keyof LoginInput, string>> | null {
  const result = loginSchema.safeParse(input);
  if (result.success) return null;
  const errors: Partial<Record<keyof LoginInput, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof LoginInput;
    errors[field] ??= issue.message;
  }
  return errors;
}
