import { z } from 'zod';
import {
  AGENCY_MESSAGES,
  type AgencyOfRecord,
  CUSTOMER_KINDS,
  type CustomerKind,
  optionalCommissionPercent,
} from './agencies';
import { emailAddress, listQuerySchema, optionalText } from './common';

/** PostgreSQL text cannot hold NUL characters; refuse them with a message instead of failing on insert. */
const hasNoNul = (value: string | null) => value === null || !value.includes('\u0000');

/** An optional text field ('' and null mean "not set") with a length limit. */
const field = (max: number, label: string) =>
  optionalText(max, label).refine(hasNoNul, `${label} contains an invalid character`);

const name = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(200, 'Name cannot be longer than 200 characters')
  .refine(hasNoNul, 'Name contains an invalid character');

const email = emailAddress('Valid email is required');

const customerFields = {
  name,
  email,
  company: field(200, 'Company'),
  phone: field(50, 'Phone'),
  address: field(500, 'Address'),
  city: field(100, 'City'),
  state: field(100, 'State'),
  zipCode: field(20, 'ZIP code'),
  country: field(100, 'Country'),
  contactPerson: field(200, 'Contact person'),
  website: field(500, 'Website'),
  industry: field(100, 'Industry'),
  notes: field(5000, 'Notes'),
  /** Advertiser (the default) or agency (product.md section 20); fixed once the customer has a contract. */
  kind: z.enum(CUSTOMER_KINDS, { message: AGENCY_MESSAGES.kindInvalid }).optional(),
  /** An agency's commission in percent, the default of the advertisers it represents (15 when left out). */
  agencyCommissionPercent: optionalCommissionPercent,
};

/** POST /api/customers and the create/edit dialog: name and e-mail required, every other field optional. */
export const createCustomerSchema = z.object(customerFields);
export type CreateCustomerInput = z.input<typeof createCustomerSchema>;
export type CustomerValues = z.output<typeof createCustomerSchema>;

/** PATCH /api/customers/:id: any subset of the fields; '' or null clears an optional field. */
export const updateCustomerSchema = z.object(customerFields).partial();
export type UpdateCustomerInput = z.input<typeof updateCustomerSchema>;

/** GET /api/customers: the list's paging and search, and `kind` (the forms' agency pickers ask for agencies). */
export const customerListQuerySchema = listQuerySchema.extend({
  kind: z.enum(CUSTOMER_KINDS, { message: AGENCY_MESSAGES.kindInvalid }).optional(),
});
export type CustomerListQuery = z.output<typeof customerListQuerySchema>;

/** A customer as the API returns it, with the number of its contracts and of those active. */
export type Customer = {
  id: string;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  contactPerson: string | null;
  website: string | null;
  industry: string | null;
  /** Internal staff notes: always null for client accounts reading their own record. */
  notes: string | null;
  contractCount: number;
  activeContractCount: number;
  /** Credit owed to the customer, applied to its next invoices (product.md section 14). */
  creditBalance: number;
  kind: CustomerKind;
  /** An agency's commission in percent; null for an advertiser. */
  agencyCommissionPercent: number | null;
  /** An advertiser's agency of record today (null: none, or an agency). */
  agencyOfRecord: AgencyOfRecord | null;
  createdAt: string;
  updatedAt: string;
};
