import { z } from 'zod';
import { ROLES } from '../roles';
import { emailAddress } from './common';

const firstName = z
  .string({ message: 'First name is required' })
  .trim()
  .min(1, 'First name is required')
  .max(100, 'First name cannot be longer than 100 characters');
const lastName = z
  .string({ message: 'Last name is required' })
  .trim()
  .min(1, 'Last name is required')
  .max(100, 'Last name cannot be longer than 100 characters');
const email = emailAddress('Valid email is required');
export const passwordRule = z
  .string({ message: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(200, 'Password cannot be longer than 200 characters');
const ROLE_MESSAGE = 'Role must be one of super_admin, admin, sales_manager, sales, finance, client';
const role = z.enum(ROLES, { message: ROLE_MESSAGE });

/** The API's commission rate: a fraction from 0 to 1 (the form shows it in percent). */
const commissionFraction = z
  .number({ message: 'Commission rate must be a number' })
  .min(0, 'Commission rate must be positive')
  .max(1, 'Commission rate cannot exceed 100%');

export const createUserSchema = z.object({
  firstName,
  lastName,
  email,
  password: passwordRule,
  role: role.default('sales'),
  commissionRate: commissionFraction.default(0.05),
  isActive: z.boolean({ message: 'Active must be true or false' }).default(true),
  customerId: z.string().uuid('Not a valid customer').nullish(),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

export const updateUserSchema = z
  .object({
    firstName,
    lastName,
    email,
    password: z.union([passwordRule, z.literal('')]).transform((v) => v || undefined),
    role,
    commissionRate: commissionFraction,
    isActive: z.boolean({ message: 'Active must be true or false' }),
    customerId: z.string().uuid('Not a valid customer').nullable(),
  })
  .partial();
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/** The role filter; 'all' (the filter's "All roles") or an empty value means every role. */
export const userListQuerySchema = z.object({
  role: z
    .union([role, z.literal('all'), z.literal('')], { message: ROLE_MESSAGE })
    .optional()
    .transform((v) => (v === 'all' || v === '' ? undefined : v)),
});

/**
 * The create/edit dialog: the same field rules, with the commission rate in percent (step 0.1)
 * and a password that may stay blank when editing.
 */
export function userFormSchema(mode: 'create' | 'edit') {
  return z.object({
    firstName,
    lastName,
    email,
    password: mode === 'create' ? passwordRule : z.union([passwordRule, z.literal('')]),
    role,
    commissionRate: z
      .number({ message: 'Commission rate must be a number' })
      .min(0, 'Commission rate must be positive')
      .max(100, 'Commission rate cannot exceed 100%'),
    isActive: z.boolean(),
    /** For client accounts: the customer whose contracts they see ('' = none). */
    customerId: z.string(),
  });
}
export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;
