import { z } from 'zod';
import { passwordRule } from './users';

/**
 * Set-password links: portal invitations and password resets. The link carries a single-use token; the
 * public /set-password screen and POST /api/auth/set-password share these rules and messages.
 */

/** How long a set-password link works. */
export const PASSWORD_LINK_HOURS = 72;

export const PASSWORD_LINK_MESSAGES = {
  invalid: 'This link is not valid. Check that you opened the whole link from the e-mail, or ask for a new one.',
  used: 'This link has already been used. Sign in with your password, or ask for a new link.',
  expired: `This link has expired (links work for ${PASSWORD_LINK_HOURS} hours). Ask for a new one.`,
  deactivated: 'This account has been deactivated. Contact your administrator.',
  done: 'Your password has been set. You can now sign in.',
} as const;

/** The password fields of the form: the same rules and messages as the password change form. */
const passwordFields = {
  password: passwordRule,
  confirmPassword: z.string({ message: 'Please confirm your password' }).min(1, 'Please confirm your password'),
};

/** A blank confirmation already says "Please confirm your password"; a mismatch is only reported on a filled one. */
const passwordsMatch = (v: { password: string; confirmPassword: string }) =>
  v.confirmPassword === '' || v.password === v.confirmPassword;
const mismatch = { message: "Passwords don't match", path: ['confirmPassword'] };

/** Tokens are base64url text; anything else cannot name a link. */
export const passwordTokenSchema = z
  .string({ message: PASSWORD_LINK_MESSAGES.invalid })
  .min(1, PASSWORD_LINK_MESSAGES.invalid)
  .max(200, PASSWORD_LINK_MESSAGES.invalid)
  .regex(/^[A-Za-z0-9_-]+$/, PASSWORD_LINK_MESSAGES.invalid);

/** POST /api/auth/set-password */
export const setPasswordSchema = z
  .object({ token: passwordTokenSchema, ...passwordFields })
  .refine(passwordsMatch, mismatch);
export type SetPasswordInput = z.infer<typeof setPasswordSchema>;

/** The /set-password form (the token comes from the address). */
export const setPasswordFormSchema = z.object(passwordFields).refine(passwordsMatch, mismatch);
export type SetPasswordFormValues = z.infer<typeof setPasswordFormSchema>;

export type SetPasswordResponse = { message: string; email: string };

/** POST /api/customers/{id}/invite and POST /api/users/{id}/send-password-reset */
export type AccessLinkResponse = {
  message: string;
  userId: string;
  email: string;
  /** Whether this call created the client account. */
  accountCreated: boolean;
  /** set-password: the e-mail carries a set-password link; sign-in: a link to the portal (the password is set). */
  link: 'set-password' | 'sign-in';
};
