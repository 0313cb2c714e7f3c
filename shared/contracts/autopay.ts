import { z } from 'zod';
import { AUTOPAY_ATTEMPT_STATUSES } from './autopay-vocabulary';
import { CARD_BRAND_LABELS, type CardBrand, cardPaymentSchema } from './checkout';

export * from './autopay-vocabulary';

/**
 * Automatic payment (product.md section 18): payment methods on file, the customer's autopay switch, the
 * set-up page (/setup/{token}) and each invoice's autopay state. The set-up form's schema is used by the page
 * and by the route.
 */

// ---------------------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------------------

/** The checkout's opt-in box, beside the card fields (off by default). */
export const SAVE_CARD_LABEL = 'Save this card and pay future invoices of this contract automatically';

/** The exact text a customer agrees to when it saves a method; it is stored with the method. */
export const autopayConsentText = (businessName: string) =>
  `I authorise ${businessName} to charge this payment method for the invoices of my contracts when they are due, ` +
  'until I turn autopay off or remove the method.';

export const AUTOPAY_MESSAGES = {
  consentRequired: 'Please agree to automatic payments to save this card',
  setupLinkGone: 'This set-up link has expired or was already used. Ask us for a new one.',
  setupLinkInvalid: 'This set-up link is not valid',
  noActiveMethod: 'Add a payment method before turning autopay on.',
  staffCannotEnable: 'Only the customer can turn autopay on.',
  nothingDue: 'Nothing is due on this invoice, so there is nothing to charge.',
  notAutopay: 'This customer has no payment method on file to charge.',
  attemptInProgress: 'A charge of this invoice is already in progress.',
  lastMethodRemoved: 'Payment method removed. Autopay is now off: no method is left to charge.',
  methodRemoved: 'Payment method removed.',
  noEmail: 'This customer has no e-mail address to send the link to.',
} as const;

/** "Visa •••• 4242" */
export function methodLabel(method: { brand: string; last4: string; kind?: string }): string {
  if (method.kind === 'us_bank_account') return `${method.brand || 'Bank account'} •••• ${method.last4}`;
  const label = CARD_BRAND_LABELS[method.brand as CardBrand] ?? 'Card';
  return `${label} •••• ${method.last4}`;
}

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

/** The set-up page's card form: the checkout's card fields, the consent box and "Make default". */
export const setupCardSchema = cardPaymentSchema.extend({
  consent: z.literal(true, { message: AUTOPAY_MESSAGES.consentRequired }),
  makeDefault: z.boolean().default(true),
});
export type SetupCardValues = z.input<typeof setupCardSchema>;

/** With Stripe configured, the set-up page's step to Stripe's page: the consent ticked here, and "Make default". */
export const stripeSetupSchema = z.object({
  consent: z.literal(true, { message: AUTOPAY_MESSAGES.consentRequired }),
  makeDefault: z.boolean().default(true),
});
export type StripeSetupValues = z.input<typeof stripeSetupSchema>;
export type SetupCard = z.output<typeof setupCardSchema>;

/** The client's switch: on (needs a default active method) or off. */
export const clientAutopaySchema = z.object({ enabled: z.boolean({ message: 'enabled must be true or false' }) });
/** Staff may only turn autopay off. */
export const staffAutopaySchema = z.object({
  enabled: z.literal(false, { message: AUTOPAY_MESSAGES.staffCannotEnable }),
});

export const paymentMethodIdParamSchema = z.object({ id: z.uuid({ message: 'Payment method not found' }) });

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

export const PAYMENT_METHOD_STATUSES = ['active', 'expired', 'failed'] as const;
export const AUTOPAY_CHARGE_ON = ['due_date', 'issue_date'] as const;
export type AutopayChargeOn = (typeof AUTOPAY_CHARGE_ON)[number];

export const consentRecordSchema = z.object({
  text: z.string(),
  at: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});

export const paymentMethodSchema = z.object({
  id: z.string(),
  kind: z.enum(['card', 'us_bank_account']),
  provider: z.enum(['builtin', 'stripe']),
  brand: z.string(),
  last4: z.string(),
  /** "Visa •••• 4242" */
  label: z.string(),
  expMonth: z.number().int().nullable(),
  expYear: z.number().int().nullable(),
  isDefault: z.boolean(),
  status: z.enum(PAYMENT_METHOD_STATUSES),
  createdAt: z.string(),
  consent: consentRecordSchema,
});
export type PaymentMethodView = z.infer<typeof paymentMethodSchema>;

export const autopayStateSchema = z.object({
  /** On for this customer: every open invoice is charged to the default method. */
  enabled: z.boolean(),
  /** What turning it on needs: a default method that is active. */
  canEnable: z.boolean(),
  chargeOn: z.enum(AUTOPAY_CHARGE_ON),
  defaultMethod: paymentMethodSchema.nullable(),
});

export const paymentMethodsSchema = z.object({
  autopay: autopayStateSchema,
  methods: z.array(paymentMethodSchema),
});
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;

/** Where to enter a method: the built-in set-up page, or Stripe's hosted page. */
export const paymentSetupStartSchema = z.object({ url: z.string() });
export type PaymentSetupStart = z.infer<typeof paymentSetupStartSchema>;

/** What a method change did, in words (a removal may turn autopay off). */
export const paymentMethodChangeSchema = paymentMethodsSchema.extend({ message: z.string() });
export type PaymentMethodChange = z.infer<typeof paymentMethodChangeSchema>;

/** GET /api/setup/{token}: who the set-up page is for. */
export const paymentSetupPageSchema = z.object({
  businessName: z.string(),
  customerName: z.string(),
  consentText: z.string(),
  expiresAt: z.string(),
  /** Where the page returns to when done: the portal's page for a signed-in client, else null. */
  returnPath: z.string().nullable(),
  methods: z.array(paymentMethodSchema.pick({ id: true, label: true, isDefault: true, status: true })),
  /** Where the method is entered: our card form (`builtin`), or Stripe's page (`stripe`). */
  provider: z.enum(['builtin', 'stripe']),
});
export type PaymentSetupPage = z.infer<typeof paymentSetupPageSchema>;

export const paymentSetupDoneSchema = z.object({ method: paymentMethodSchema, autopayEnabled: z.boolean() });
export type PaymentSetupDone = z.infer<typeof paymentSetupDoneSchema>;

export const paymentSetupLinkSentSchema = z.object({ sentTo: z.string(), expiresAt: z.string() });
export type PaymentSetupLinkSent = z.infer<typeof paymentSetupLinkSentSchema>;

export const autopayAttemptSchema = z.object({
  number: z.number().int(),
  at: z.string(),
  status: z.enum(AUTOPAY_ATTEMPT_STATUSES),
  /** Dollars, as every amount of the API. */
  amount: z.number(),
  method: z.string(),
  reason: z.string().nullable(),
  nextAttemptOn: z.string().nullable(),
});
export type AutopayAttempt = z.infer<typeof autopayAttemptSchema>;

/**
 * An invoice's autopay, in GET /api/invoices/{id}: null when its customer is not on autopay and it was never
 * charged. `scheduledOn` with `method`: "Autopay: Visa •••• 4242 on Dec 8".
 */
export const invoiceAutopaySchema = z
  .object({
    method: z.string().nullable(),
    scheduledOn: z.string().nullable(),
    attempts: z.array(autopayAttemptSchema),
    /** Finance's "Charge now" would charge it (open, something due, a method to charge, no attempt running). */
    canChargeNow: z.boolean(),
  })
  .nullable();
export type InvoiceAutopay = z.infer<typeof invoiceAutopaySchema>;
