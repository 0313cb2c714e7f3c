import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { formatDocumentDate } from '@shared/document-date';
import { formatCents } from '@shared/money';
import {
  addressLine,
  type CustomerRecipient,
  emailButton,
  emailLayout,
  emailOpening,
  escapeHtml,
  type Fact,
  plainText,
} from '../../lib/email';
import type { EmailMessage } from '../../lib/mailer';

/**
 * The e-mails of autopay (product.md section 18): a charge that failed (its reason in words, the amount, the next
 * attempt, a link to update the method), a charge that needs the customer to confirm it, a card about to expire,
 * and the set-up link staff send. Days read "Dec 8, 2026".
 */

const day = formatDocumentDate;

function message(
  input: { to: CustomerRecipient; company: CompanyProfile; subject: string; intro: string; facts: Fact[] },
  action: { url: string; button: string; text: string },
  closing: string[],
  about: { entity: string; entityId: string },
): EmailMessage {
  const opening = emailOpening(input.to, input.intro, input.facts);
  const text = plainText([...opening.lines, `${action.text} ${action.url}`, '', ...closing], input.company);
  const html = emailLayout(
    `${opening.html}
${emailButton(action.url, action.button)}${addressLine(action.url)}
${closing.map((line) => `<p style="color:#555">${escapeHtml(line)}</p>`).join('\n')}`,
    input.company,
  );
  return { to: input.to.email, subject: input.subject, text, html, ...about };
}

export type FailedChargeFacts = {
  invoiceId: string;
  invoiceNumber: string;
  amountCents: number;
  method: string;
  reason: string;
  /** The next automatic attempt's day, or null when none is left. */
  nextAttemptOn: string | null;
};

/** A failed charge: "Payment failed for INV-...", with what happens next and where to update the method. */
export function chargeFailedEmail(input: {
  to: CustomerRecipient;
  company: CompanyProfile;
  charge: FailedChargeFacts;
  updateUrl: string;
}): EmailMessage {
  const { charge } = input;
  const facts: Fact[] = [
    ['Invoice', charge.invoiceNumber],
    ['Amount', formatCents(charge.amountCents)],
    ['Payment method', charge.method],
    ['Reason', charge.reason],
    ['Next attempt', charge.nextAttemptOn ? day(charge.nextAttemptOn) : 'None: please update your payment method'],
  ];
  const intro = `We could not charge ${formatCents(charge.amountCents)} for invoice ${charge.invoiceNumber} to ${charge.method}: ${charge.reason}`;
  const next = charge.nextAttemptOn
    ? `We will try again on ${day(charge.nextAttemptOn)}. To use another card before then, update your payment method; we will charge it at once.`
    : 'We will not try this card again. Please add another payment method; we will charge it at once.';
  return message(
    { to: input.to, company: input.company, subject: `Payment failed for ${charge.invoiceNumber}`, intro, facts },
    { url: input.updateUrl, button: 'Update payment method', text: 'Update your payment method:' },
    [next, 'The link is personal to you; please do not share it.'],
    { entity: 'invoice', entityId: charge.invoiceId },
  );
}

/** A charge the customer's bank wants confirmed (3-D Secure): a link where the customer pays it in person. */
export function chargeNeedsConfirmationEmail(input: {
  to: CustomerRecipient;
  company: CompanyProfile;
  charge: Omit<FailedChargeFacts, 'nextAttemptOn'>;
  confirmUrl: string;
}): EmailMessage {
  const { charge } = input;
  const facts: Fact[] = [
    ['Invoice', charge.invoiceNumber],
    ['Amount', formatCents(charge.amountCents)],
    ['Payment method', charge.method],
  ];
  return message(
    {
      to: input.to,
      company: input.company,
      subject: `Payment failed for ${charge.invoiceNumber}: please confirm it`,
      intro: `Your bank asks you to confirm the payment of ${formatCents(charge.amountCents)} for invoice ${charge.invoiceNumber} to ${charge.method}.`,
      facts,
    },
    { url: input.confirmUrl, button: 'Confirm the payment', text: 'Confirm the payment:' },
    ['Until it is confirmed the invoice stays unpaid.'],
    { entity: 'invoice', entityId: charge.invoiceId },
  );
}

/** A card on file that expires at the end of its month, 30 or 7 days before. */
export function cardExpiringEmail(input: {
  to: CustomerRecipient;
  company: CompanyProfile;
  method: string;
  expiresOn: string;
  days: 30 | 7;
  updateUrl: string;
  customerId: string;
}): EmailMessage {
  return message(
    {
      to: input.to,
      company: input.company,
      subject: `Your ${input.method} expires on ${day(input.expiresOn)}`,
      intro: `${input.method}, which pays your invoices automatically, expires on ${day(input.expiresOn)}. Please add the new card so that your next invoices are paid on time.`,
      facts: [
        ['Payment method', input.method],
        ['Expires', day(input.expiresOn)],
      ],
    },
    { url: input.updateUrl, button: 'Update payment method', text: 'Update your payment method:' },
    ['The link is personal to you; please do not share it.'],
    { entity: 'customer', entityId: input.customerId },
  );
}

/** The set-up link staff send to a customer who pays by link: 7 days, once. */
export function setupLinkEmail(input: {
  to: CustomerRecipient;
  company: CompanyProfile;
  url: string;
  expiresAt: Date;
  customerId: string;
}): EmailMessage {
  const business = input.company.legalName || 'us';
  return message(
    {
      to: input.to,
      company: input.company,
      subject: `Set up automatic payment with ${business}`,
      intro: `Save a card on file and your invoices will be paid automatically on their due dates. You can turn this off at any time.`,
      facts: [['Link valid until', day(input.expiresAt.toISOString().slice(0, 10))]],
    },
    { url: input.url, button: 'Save a payment method', text: 'Save a payment method:' },
    ['The link works once and is personal to you; please do not share it.'],
    { entity: 'customer', entityId: input.customerId },
  );
}
