import { formatCents } from '@shared/money';
import {
  addressLine,
  type EmailRecipient,
  emailButton,
  emailLayout,
  escapeHtml,
  type Fact,
  factLines,
  factTable,
  plainText,
} from '../../lib/email';
import type { EmailMessage } from '../../lib/mailer';

/** The e-mail the customer gets when a credit note corrects one of their invoices (product.md section 14). */

export type CreditNoteEmailFacts = {
  id: string;
  number: string;
  reason: string;
  amountCents: number;
  appliedToInvoiceCents: number;
  toCreditBalanceCents: number;
  invoiceNumber: string;
  contractName: string;
};

/**
 * A new credit note: what it credits and why, how much lowered the invoice's amount due, what went to the
 * credit balance (applied to the next invoice), and the client portal where the customer finds it.
 */
export function creditNoteIssuedEmail(input: {
  creditNote: CreditNoteEmailFacts;
  customer: EmailRecipient;
  portalUrl: string;
}): EmailMessage {
  const { creditNote, customer, portalUrl } = input;
  const facts = creditNoteFacts(creditNote);
  const intro = `We have issued credit note ${creditNote.number} of ${formatCents(creditNote.amountCents)} on invoice ${creditNote.invoiceNumber}.`;
  const reason = `Reason: ${creditNote.reason}`;
  const balance = balanceSentence(creditNote.toCreditBalanceCents);
  const portalNote = 'Sign in to the client portal to see and download the credit note.';
  const text = plainText([
    `Hello ${customer.name},`,
    '',
    intro,
    '',
    ...factLines(facts),
    '',
    reason,
    '',
    ...(balance ? [balance, ''] : []),
    `See it in the client portal: ${portalUrl}`,
    '',
  ]);
  const html = emailLayout(
    `<p>Hello ${escapeHtml(customer.name)},</p>
<p>${escapeHtml(intro)}</p>
${factTable(facts)}
<p>${escapeHtml(reason)}</p>
${balance ? `<p>${escapeHtml(balance)}</p>` : ''}
${emailButton(portalUrl, 'Open the client portal')}${addressLine(portalUrl)}<p style="color:#555">${escapeHtml(portalNote)}</p>`,
  );
  return {
    to: customer.email,
    subject: `Credit note ${creditNote.number} for invoice ${creditNote.invoiceNumber}`,
    text,
    html,
    entity: 'credit_note',
    entityId: creditNote.id,
  };
}

/** The credit note's facts; the credit balance row only when part of the credit went there. */
function creditNoteFacts(creditNote: CreditNoteEmailFacts): Fact[] {
  return [
    ['Credit note', creditNote.number],
    ['Invoice', creditNote.invoiceNumber],
    ['Contract', creditNote.contractName],
    ['Amount', formatCents(creditNote.amountCents)],
    ['Applied to the invoice', formatCents(creditNote.appliedToInvoiceCents)],
    ...(creditNote.toCreditBalanceCents > 0
      ? ([['Added to your credit balance', formatCents(creditNote.toCreditBalanceCents)]] as Fact[])
      : []),
  ];
}

/** What happens to the credit beyond the invoice's amount due; nothing to say when there is none. */
function balanceSentence(toCreditBalanceCents: number): string | null {
  if (toCreditBalanceCents <= 0) return null;
  return `The ${formatCents(toCreditBalanceCents)} added to your credit balance is applied automatically to your next invoice.`;
}
