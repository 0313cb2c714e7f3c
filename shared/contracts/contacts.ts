import { z } from 'zod';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../email';
import { optionalText } from './common';

/**
 * A customer's people (product.md section 19): one primary contact and one billing contact at most. Invoices,
 * receipts and payment e-mails go to the billing contact (the customer's own e-mail when it has none), so a
 * billing contact needs an e-mail address. The API and the contact dialog validate with the same schema.
 */

export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  emailInvalid: 'Valid email is required',
  billingNeedsEmail: 'A billing contact needs an e-mail address',
  raced: "Another change to this customer's contacts was saved at the same moment. Reload and try again.",
} as const;

/** PostgreSQL text cannot hold NUL characters; refuse them with a message instead of failing on insert. */
const hasNoNul = (value: string | null) => value === null || !value.includes('\u0000');

const field = (max: number, label: string) =>
  optionalText(max, label).refine(hasNoNul, `${label} contains an invalid character`);

const name = z
  .string({ message: CONTACT_MESSAGES.nameRequired })
  .trim()
  .min(1, CONTACT_MESSAGES.nameRequired)
  .max(200, 'Name cannot be longer than 200 characters')
  .refine(hasNoNul, 'Name contains an invalid character');

/** An optional e-mail address: '' and null mean "none"; anything else must be a valid address. */
const email = z
  .string({ message: CONTACT_MESSAGES.emailInvalid })
  .trim()
  .max(MAX_EMAIL_LENGTH, CONTACT_MESSAGES.emailInvalid)
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || EMAIL_PATTERN.test(v), CONTACT_MESSAGES.emailInvalid);

const flag = z.boolean({ message: 'Must be true or false' });

const contactFields = {
  name,
  role: field(100, 'Role'),
  email,
  phone: field(50, 'Phone'),
  notes: field(2000, 'Notes'),
  isPrimary: flag.default(false),
  isBilling: flag.default(false),
};

/** POST /api/customers/{id}/contacts and the contact dialog: a name, and an e-mail for a billing contact. */
export const contactSchema = z.object(contactFields).superRefine((value, ctx) => {
  if (value.isBilling && !value.email) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: CONTACT_MESSAGES.billingNeedsEmail });
  }
});
export type ContactInput = z.input<typeof contactSchema>;
export type ContactValues = z.output<typeof contactSchema>;

/**
 * PATCH /api/customers/{id}/contacts/{contactId}: any subset of the fields ('' or null clears an optional one).
 * `isPrimary: true` (or `isBilling: true`) takes the flag from the customer's previous primary (or billing)
 * contact; the billing rule is checked on the contact as it would be saved.
 */
export const contactPatchSchema = z.object({
  name: name.optional(),
  role: contactFields.role.optional(),
  email: email.optional(),
  phone: contactFields.phone.optional(),
  notes: contactFields.notes.optional(),
  isPrimary: flag.optional(),
  isBilling: flag.optional(),
});
export type ContactPatchValues = z.output<typeof contactPatchSchema>;

export const contactParamsSchema = z.object({
  id: z.string().uuid('Not a valid id'),
  contactId: z.string().uuid('Not a valid id'),
});

/** A contact as the API answers it. */
export type Contact = {
  id: string;
  customerId: string;
  name: string;
  role: string | null;
  email: string | null;
  phone: string | null;
  notes: string | null;
  isPrimary: boolean;
  isBilling: boolean;
  createdAt: string;
  updatedAt: string;
};
