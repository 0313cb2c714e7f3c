import { z } from 'zod';
import { emailAddress } from './common';
import { DEFAULT_DELIVERY_GRACE_DAYS, MAX_DELIVERY_GRACE_DAYS } from './delivery-vocabulary';
import { DEFAULT_HOLD_DAYS, MAX_HOLD_DAYS } from './inventory';

export const taxSettingsSchema = z.object({
  defaultTaxRate: z
    .number({ message: 'Tax rate must be a number' })
    .min(0, 'Tax rate cannot be negative')
    .max(100, 'Tax rate cannot exceed 100%')
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, {
      message: 'Tax rate can have at most two decimals',
    }),
  taxIncluded: z.boolean({ message: 'Tax included must be true or false' }),
  taxLabel: z
    .string({ message: 'Tax label is required' })
    .trim()
    .min(1, 'Tax label is required')
    .max(30, 'Tax label cannot be longer than 30 characters'),
});
export type TaxSettings = z.infer<typeof taxSettingsSchema>;
export const DEFAULT_TAX_SETTINGS: TaxSettings = { defaultTaxRate: 0, taxIncluded: false, taxLabel: 'Tax' };

/** Dunning days are whole days after an invoice's due date, 0 to 60 (0: that step is off). */
const dunningDays = (label: string, max: number) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number of days`)
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} cannot exceed ${max} days`);

export const DUNNING_MESSAGES = {
  secondAfterFirst: 'The second reminder must come after the first',
} as const;

/** The longest terms text an insertion order may print. */
export const MAX_IO_TERMS_LENGTH = 20_000;

/** The terms every insertion order prints until an admin writes the business's own (Contract Settings). */
export const DEFAULT_IO_TERMS =
  'This insertion order is an agreement between the advertiser named above and the publisher for the advertising ' +
  'described in it, at the prices and for the flights shown. Invoices are issued on the schedule shown and are due ' +
  'on their due date; unpaid invoices may pause the campaign. Creative materials must be supplied by the ' +
  "advertiser before each flight starts and comply with applicable law and the publisher's policies. The " +
  'publisher may reject or remove any advertisement. Under-delivery of impression-based lines is settled by a ' +
  "credit note or make-good. Either party may end a contract without a fixed term with 30 days' written notice; " +
  'a contract with a term runs until its end date. Accepting this insertion order electronically is the same as ' +
  'signing it.';

/** The contract settings' fields, without the rule between them (the update route merges a partial body). */
export const contractSettingsFields = z.object({
  pausePaymentsAfterExpiry: z.boolean({ message: 'Pause payments after expiry must be true or false' }),
  gracePeriodsEndOfDays: z
    .number({ message: 'Grace period must be a number' })
    .int('Grace period must be a whole number of days')
    .min(0, 'Grace period cannot be negative')
    .max(30, 'Grace period cannot exceed 30 days'),
  /** Days after the due date of an unpaid invoice's first reminder (0: none). */
  firstReminderDays: dunningDays('First reminder', 60),
  /** Days after the due date of its second reminder (0: none). */
  secondReminderDays: dunningDays('Second reminder', 60),
  /** Days after the due date an unpaid invoice pauses its contract for non-payment (0: never). */
  pauseAfterOverdueDays: dunningDays('Days before the pause', 120),
  /** Days a sent contract holds its inventory units before they are released (product.md section 13). */
  holdDays: z
    .number({ message: 'Hold days must be a number' })
    .int('Hold days must be a whole number of days')
    .min(1, 'Hold days must be at least 1')
    .max(MAX_HOLD_DAYS, `Hold days cannot exceed ${MAX_HOLD_DAYS} days`),
  /**
   * Days after a billed period's end before the delivery an ad server pushed for it counts as final, and an
   * under-delivered period is settled (product.md section 16; decision 041).
   */
  deliveryGraceDays: z
    .number({ message: 'Delivery grace days must be a number' })
    .int('Delivery grace days must be a whole number of days')
    .min(0, 'Delivery grace days cannot be negative')
    .max(MAX_DELIVERY_GRACE_DAYS, `Delivery grace days cannot exceed ${MAX_DELIVERY_GRACE_DAYS} days`),
  /** The terms printed on every insertion order sent from now on (product.md section 15). */
  ioTerms: z
    .string({ message: 'Insertion order terms must be text' })
    .trim()
    .min(1, 'Enter the terms printed on insertion orders')
    .max(
      MAX_IO_TERMS_LENGTH,
      `Insertion order terms cannot exceed ${MAX_IO_TERMS_LENGTH.toLocaleString('en-US')} characters`,
    ),
  /** When autopay charges an open invoice (product.md section 18): on its due date, or on its issue date. */
  autopayChargeOn: z.enum(['due_date', 'issue_date'], { message: 'Autopay charges on the due date or the issue date' }),
});

export const contractSettingsSchema = contractSettingsFields.refine(
  (v) => v.firstReminderDays === 0 || v.secondReminderDays === 0 || v.secondReminderDays > v.firstReminderDays,
  { message: DUNNING_MESSAGES.secondAfterFirst, path: ['secondReminderDays'] },
);
export type ContractSettings = z.infer<typeof contractSettingsSchema>;
export const DEFAULT_CONTRACT_SETTINGS: ContractSettings = {
  pausePaymentsAfterExpiry: true,
  gracePeriodsEndOfDays: 7,
  firstReminderDays: 3,
  secondReminderDays: 10,
  pauseAfterOverdueDays: 21,
  holdDays: DEFAULT_HOLD_DAYS,
  deliveryGraceDays: DEFAULT_DELIVERY_GRACE_DAYS,
  ioTerms: DEFAULT_IO_TERMS,
  autopayChargeOn: 'due_date',
};

/**
 * PUT /api/settings/contracts: the dunning days, hold days and delivery grace days may be left out (they keep
 * their saved values).
 */
export const contractSettingsUpdateSchema = contractSettingsFields.partial({
  firstReminderDays: true,
  secondReminderDays: true,
  pauseAfterOverdueDays: true,
  holdDays: true,
  deliveryGraceDays: true,
  ioTerms: true,
  autopayChargeOn: true,
});

export const notificationSettingsSchema = z.object({
  emailContractUpdates: z.boolean(),
  emailPaymentNotifications: z.boolean(),
  emailCommissionAlerts: z.boolean(),
  emailSystemMaintenance: z.boolean(),
  emailAccountSecurity: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const profileSchema = z.object({
  firstName: z
    .string({ message: 'First name is required' })
    .trim()
    .min(1, 'First name is required')
    .max(100, 'First name cannot be longer than 100 characters'),
  lastName: z
    .string({ message: 'Last name is required' })
    .trim()
    .min(1, 'Last name is required')
    .max(100, 'Last name cannot be longer than 100 characters'),
  email: emailAddress('Invalid email address'),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string({ message: 'Current password is required' }).min(1, 'Current password is required'),
    newPassword: z
      .string({ message: 'Password must be at least 6 characters' })
      .min(6, 'Password must be at least 6 characters')
      .max(200, 'Password cannot be longer than 200 characters'),
    confirmPassword: z.string({ message: 'Please confirm your password' }).min(1, 'Please confirm your password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/**
 * Agency settings (product.md section 20): whether each agency is e-mailed its statement of the previous month
 * on the 1st. Read by staff, changed by admins (GET/PUT /api/settings/agencies).
 */
export const agencySettingsSchema = z.object({
  agencyStatementsMonthly: z.boolean({ message: 'Monthly agency statements must be true or false' }),
});
export type AgencySettings = z.infer<typeof agencySettingsSchema>;
export const DEFAULT_AGENCY_SETTINGS: AgencySettings = { agencyStatementsMonthly: true };
