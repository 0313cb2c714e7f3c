import { z } from 'zod';
import { API_KEY_ROLES, API_KEY_SCOPES } from './api-key-vocabulary';
import { isCalendarDate } from './common';

export * from './api-key-vocabulary';

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name cannot be longer than 100 characters',
  scope: 'Choose what the key may do',
  roleRequired: 'Choose the role whose rights the key has',
  roleNotAllowed: 'Only a key with the rights of a staff role has a role',
  expiry: 'Enter a valid date (YYYY-MM-DD)',
  expiryPast: 'The expiry date must be after today',
} as const;

/** POST /api/api-keys and the "New API key" form. */
export const createApiKeySchema = z
  .object({
    name: z
      .string({ message: API_KEY_MESSAGES.nameRequired })
      .trim()
      .min(1, API_KEY_MESSAGES.nameRequired)
      .max(100, API_KEY_MESSAGES.nameTooLong),
    scope: z.enum(API_KEY_SCOPES, { message: API_KEY_MESSAGES.scope }),
    role: z.enum(API_KEY_ROLES, { message: API_KEY_MESSAGES.roleRequired }).nullish(),
    /** The last day the key works (the business's calendar); none: it does not expire. */
    expiresOn: z
      .string({ message: API_KEY_MESSAGES.expiry })
      .trim()
      .refine((v) => v === '' || isCalendarDate(v), API_KEY_MESSAGES.expiry)
      .nullish()
      .transform((v) => v || null),
  })
  .superRefine((value, ctx) => {
    if (value.scope === 'role' && !value.role) {
      ctx.addIssue({ code: 'custom', path: ['role'], message: API_KEY_MESSAGES.roleRequired });
    }
    if (value.scope !== 'role' && value.role) {
      ctx.addIssue({ code: 'custom', path: ['role'], message: API_KEY_MESSAGES.roleNotAllowed });
    }
  });

export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;
export type CreateApiKey = z.output<typeof createApiKeySchema>;
