import { z } from 'zod';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../email';
import { COMPANY_LIMITS, COMPANY_MESSAGES } from './company-vocabulary';

export * from './company-vocabulary';

/** PostgreSQL text cannot hold NUL characters; refuse them with a message instead of failing on save. */
const hasNoNul = (value: string | null) => value === null || !value.includes('\u0000');
const oneLine = (value: string | null) => value === null || !/[\r\n]/.test(value);

/** Optional text: '', blanks and null mean "not set" (null); at most `max` characters. */
const text = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} cannot be longer than ${max.toLocaleString('en-US')} characters`)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine(hasNoNul, `${label} contains an invalid character`);

/** Optional text printed on one line (a name, an address part). */
const line = (label: string, max: number) => text(label, max).refine(oneLine, `${label} must fit on one line`);

const PHONE = /^\+?[\d\s().\-/]*\d[\d\s().\-/]*(?:\s*(?:ext\.?|x)\s*\d{1,6})?$/i;

/** A web address: http(s) with a host name; "example.com" alone is taken as https://example.com. */
const website = z
  .string({ message: COMPANY_MESSAGES.website })
  .trim()
  .max(COMPANY_LIMITS.website, `Website cannot be longer than ${COMPANY_LIMITS.website} characters`)
  .nullish()
  .transform((v) => (v ? (/^[a-z][a-z\d+.-]*:/i.test(v) ? v : `https://${v}`) : null))
  .refine((v) => v === null || isWebAddress(v), COMPANY_MESSAGES.website);

function isWebAddress(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && /^[^.]+(\.[^.]+)+$|^localhost$/.test(url.hostname)
    );
  } catch {
    return false;
  }
}

/**
 * GET and PUT /api/settings/company and the Settings screen's Company tab: the seller printed on invoices,
 * credit notes, insertion orders and receipts, and at the foot of customer e-mails (product.md section 17).
 * The legal name is required; every other field is optional ('' or null clears it).
 */
export const companyProfileSchema = z.object({
  legalName: z
    .string({ message: COMPANY_MESSAGES.legalNameRequired })
    .trim()
    .min(1, COMPANY_MESSAGES.legalNameRequired)
    .max(COMPANY_LIMITS.legalName, `Legal name cannot be longer than ${COMPANY_LIMITS.legalName} characters`)
    .refine((v) => hasNoNul(v) && oneLine(v), 'Legal name must be one line of text'),
  address: z
    .object(
      {
        street: line('Street', COMPANY_LIMITS.street),
        city: line('City', COMPANY_LIMITS.city),
        state: line('State', COMPANY_LIMITS.state),
        zip: line('ZIP code', COMPANY_LIMITS.zip),
        country: line('Country', COMPANY_LIMITS.country),
      },
      { message: 'Address must be an object with street, city, state, zip and country' },
    )
    .nullish()
    .transform((v) => v ?? { street: null, city: null, state: null, zip: null, country: null }),
  phone: line('Phone', COMPANY_LIMITS.phone).refine((v) => v === null || PHONE.test(v), COMPANY_MESSAGES.phone),
  billingEmail: z
    .string({ message: COMPANY_MESSAGES.email })
    .trim()
    .max(MAX_EMAIL_LENGTH, COMPANY_MESSAGES.email)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || EMAIL_PATTERN.test(v), COMPANY_MESSAGES.email),
  website,
  taxId: line('Tax ID', COMPANY_LIMITS.taxId),
  paymentInstructions: text('Payment instructions', COMPANY_LIMITS.paymentInstructions),
  invoiceFooter: text('Invoice footer', COMPANY_LIMITS.invoiceFooter),
});

/** What the form holds and the PUT may send ('' for an empty field). */
export type CompanyProfileInput = z.input<typeof companyProfileSchema>;
/** What is saved and answered: the profile documents print, every empty field null. */
export type CompanyProfileValues = z.output<typeof companyProfileSchema>;
