import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { type PaymentMethod, paymentMethodText } from '@shared/contracts/invoices';
import { formatDocumentDate } from '@shared/document-date';
import { amountDueCents } from '@shared/invoice-amounts';
import { formatCents } from '@shared/money';
import { businessDayOf } from '../../lib/business-day';
import { payLink, portalLink } from '../../lib/capability-links';
import {
  addressLine,
  type CustomerRecipient,
  emailButton,
  emailLayout,
  emailOpening,
  escapeHtml,
  type Fact,
  factLines,
  factTable,
  greeting,
  paymentInstructionsParts,
  plainText,
} from '../../lib/email';
import type { EmailMessage } from '../../lib/mailer';

/**
 * The e-mails billing sends the customer: a new invoice, a payment receipt, a voided invoice or refund, a credit
 * note. Each greets the customer's contact person, writes days as "Dec 8, 2026" and ends with the company's
 * footer (`company`: the profile of lib/company-profile.ts).
 */

export type InvoiceEmailFacts = {
  id: string;
  number: string;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  status: string;
  totalCents: number;
  amountPaidCents: number;
  creditedCents: number;
  contractName: string;
  /** The advertiser an invoice billed to its agency is for (product.md section 20); null otherwise. */
  advertiserName?: string | null;
};

/**
 * The facts that say what an invoice is for: the contract, and for an invoice billed to an agency the advertiser
 * and the agency ("Advertiser: Bella Notte Trattoria — Billed to: Cardinal Media").
 */
function forFacts(invoice: InvoiceEmailFacts, customer: Recipient): Fact[] {
  return [
    ['For', invoice.contractName],
    ...(invoice.advertiserName
      ? ([['Advertiser', `${invoice.advertiserName} — Billed to: ${customer.name}`]] as Fact[])
      : []),
  ];
}

export type Recipient = CustomerRecipient;

const day = formatDocumentDate;
/** "Nov 16, 2026 to Dec 15, 2026" */
const period = (invoice: Pick<InvoiceEmailFacts, 'periodStart' | 'periodEnd'>) =>
  `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`;

/** Where the customer pays: the contract's pay link, or the client portal. */
export type PayWhere = { kind: 'pay_link'; url: string } | { kind: 'portal'; url: string };

/** A contract's name in e-mails: its title, else its description, else its short id. */
export function contractDisplayName(contract: {
  id: string;
  title: string | null;
  description: string | null;
}): string {
  const text = contract.title?.trim() || contract.description?.trim();
  if (text) return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `Contract #${contract.id.slice(-8)}`;
}

/** An invoice as the set-based e-mail queries read it (raw rows: snake_case, bigint columns maybe as text). */
export type InvoiceMailRow = {
  id: string;
  number: string;
  period_start: string;
  period_end: string;
  due_date: string;
  status: string;
  total_cents: string | number;
  amount_paid_cents: string | number;
  contract_id: string;
  contract_title: string | null;
  contract_description: string | null;
  payment_mode: string;
  pay_link_token: string | null;
  customer_name: string;
  customer_email: string;
  customer_contact_person: string | null;
  /** Billed to an agency: the advertiser's name (the row's customer is the agency); else null or absent. */
  advertiser_name?: string | null;
};

/** Whom such a row's e-mail greets and goes to. */
export const mailRowRecipient = (row: InvoiceMailRow): Recipient => ({
  name: row.customer_name,
  email: row.customer_email,
  contactPerson: row.customer_contact_person,
});

/** The facts such a row's e-mail shows; `creditedCents` when the query read it (a new invoice has none). */
export function invoiceMailFacts(row: InvoiceMailRow, creditedCents = 0): InvoiceEmailFacts {
  return {
    id: row.id,
    number: row.number,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    dueDate: row.due_date,
    status: row.status,
    totalCents: Number(row.total_cents),
    amountPaidCents: Number(row.amount_paid_cents),
    creditedCents,
    contractName: contractDisplayName({
      id: row.contract_id,
      title: row.contract_title,
      description: row.contract_description,
    }),
    advertiserName: row.advertiser_name ?? null,
  };
}

/** Where such a row's customer pays: the contract's pay link in pay-link mode, else the client portal. */
export function payWhereOf(baseUrl: string, row: Pick<InvoiceMailRow, 'payment_mode' | 'pay_link_token'>): PayWhere {
  return row.payment_mode === 'pay_link' && row.pay_link_token
    ? { kind: 'pay_link', url: payLink(baseUrl, row.pay_link_token) }
    : { kind: 'portal', url: portalLink(baseUrl) };
}

/** The facts of an invoice as its e-mails show them. */
export function invoiceEmailFacts(
  invoice: Omit<InvoiceEmailFacts, 'contractName'>,
  contract: { id: string; title: string | null; description: string | null },
  advertiserName: string | null = null,
): InvoiceEmailFacts {
  return {
    id: invoice.id,
    number: invoice.number,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
    dueDate: invoice.dueDate,
    status: invoice.status,
    totalCents: invoice.totalCents,
    amountPaidCents: invoice.amountPaidCents,
    creditedCents: invoice.creditedCents,
    contractName: contractDisplayName(contract),
    advertiserName,
  };
}

/** The call to pay, by where the customer pays: its plain-text line, button and note. */
function payAction(pay: PayWhere): { text: string; button: string; note: string } {
  return pay.kind === 'pay_link'
    ? {
        text: `Pay securely: ${pay.url}`,
        button: 'Pay now',
        note: 'The link is personal to your contract; please do not share it.',
      }
    : {
        text: `Pay in the client portal: ${pay.url}`,
        button: 'Open the client portal',
        note: 'Sign in to the client portal to pay and download the invoice.',
      };
}

/**
 * A dunning reminder (product.md section 14): the invoice is overdue, what is still due, and where to pay
 * (the contract's pay link, or the client portal). The second one says what follows when a pause is set.
 */
export function invoiceReminderEmail(input: {
  invoice: InvoiceEmailFacts;
  customer: Recipient;
  company: CompanyProfile;
  pay: PayWhere;
  step: 'first_reminder' | 'second_reminder';
  daysOverdue: number;
  /** The day the contract pauses for non-payment if the invoice is still unpaid; null: never. */
  pausesOn: string | null;
}): EmailMessage {
  const { invoice, customer, company, pay } = input;
  const dueCents = amountDueCents(invoice);
  const action = payAction(pay);
  const otherWays = paymentInstructionsParts(company);
  const days = `${input.daysOverdue} day${input.daysOverdue === 1 ? '' : 's'}`;
  const facts: Fact[] = [
    ['Invoice', invoice.number],
    ...forFacts(invoice, customer),
    ['Period', period(invoice)],
    ['Amount due', formatCents(dueCents)],
    ['Was due', `${day(invoice.dueDate)} (${days} ago)`],
  ];
  const first = input.step === 'first_reminder';
  const intro = first
    ? `A friendly reminder: invoice ${invoice.number} was due on ${day(invoice.dueDate)} and ${formatCents(dueCents)} is still unpaid.`
    : `Invoice ${invoice.number} is now ${days} overdue: ${formatCents(dueCents)} is still unpaid.`;
  const warning =
    !first && input.pausesOn
      ? `If it remains unpaid, your advertising pauses on ${day(input.pausesOn)} and resumes as soon as the invoice is paid.`
      : null;
  const closing = 'If you have already paid, thank you, and please disregard this message.';
  const text = plainText(
    [
      greeting(customer),
      '',
      intro,
      ...(warning ? ['', warning] : []),
      '',
      ...factLines(facts),
      '',
      action.text,
      '',
      action.note,
      '',
      ...otherWays.lines,
      closing,
    ],
    company,
  );
  const html = emailLayout(
    `<p>${escapeHtml(greeting(customer))}</p>
<p>${escapeHtml(intro)}</p>
${warning ? `<p><strong>${escapeHtml(warning)}</strong></p>` : ''}
${factTable(facts)}
${emailButton(pay.url, action.button)}${addressLine(pay.url)}<p style="color:#555">${escapeHtml(action.note)}</p>
${otherWays.html}<p style="color:#555">${escapeHtml(closing)}</p>`,
    company,
  );
  return {
    to: customer.email,
    subject: first
      ? `Reminder: invoice ${invoice.number} is overdue`
      : `Second reminder: invoice ${invoice.number} is ${days} overdue`,
    text,
    html,
    entity: 'invoice',
    entityId: invoice.id,
  };
}

/** A new invoice: what it is for, what is due and by when, and where to pay. */
export function invoiceIssuedEmail(input: {
  invoice: InvoiceEmailFacts;
  customer: Recipient;
  company: CompanyProfile;
  pay: PayWhere;
  /** An autopay customer's method and the day it is charged (product.md section 18): no call to pay then. */
  autopay?: { method: string; on: string } | null;
}): EmailMessage {
  const { invoice, customer, company, pay } = input;
  const dueCents = amountDueCents(invoice);
  const autopay = dueCents > 0 ? (input.autopay ?? null) : null;
  const facts: Fact[] = [
    ['Invoice', invoice.number],
    ...forFacts(invoice, customer),
    ['Period', period(invoice)],
    ['Amount due', formatCents(dueCents)],
    ['Due date', day(invoice.dueDate)],
  ];
  const action = payAction(pay);
  const otherWays = paymentInstructionsParts(company);
  const intro =
    dueCents > 0
      ? `Your invoice ${invoice.number} is ready. ${formatCents(dueCents)} is due by ${day(invoice.dueDate)}.`
      : `Your invoice ${invoice.number} is ready. Nothing is due on it.`;
  const charged = autopay ? `Will be charged to ${autopay.method} on ${day(autopay.on)}.` : null;
  const opening = emailOpening(customer, intro, facts);
  const text = plainText(
    [
      ...opening.lines,
      ...(charged ? [charged, '', 'You have nothing to do: we will e-mail the receipt.', ''] : []),
      ...(dueCents > 0 && !charged ? [action.text, '', action.note, '', ...otherWays.lines] : []),
    ],
    company,
  );
  const html = emailLayout(
    `${opening.html}
${charged ? `<p><strong>${escapeHtml(charged)}</strong></p><p style="color:#555">You have nothing to do: we will e-mail the receipt.</p>` : ''}
${dueCents > 0 && !charged ? `${emailButton(pay.url, action.button)}${addressLine(pay.url)}<p style="color:#555">${escapeHtml(action.note)}</p>${otherWays.html}` : ''}`,
    company,
  );
  return {
    to: customer.email,
    subject: `Invoice ${invoice.number}: ${formatCents(dueCents)} due ${day(invoice.dueDate)}`,
    text,
    html,
    entity: 'invoice',
    entityId: invoice.id,
  };
}

export type ReceiptFacts = {
  invoice: InvoiceEmailFacts;
  payment: {
    id: string;
    amountCents: number;
    method: PaymentMethod;
    paidAt: Date;
    reference: string | null;
    cardBrand: string | null;
    cardLast4: string | null;
  };
};

/** The receipt of one payment: invoice number, amount, method, date and what is still due. */
export function receiptEmail(
  input: ReceiptFacts & { customer: Recipient; company: CompanyProfile; resent?: boolean },
): EmailMessage {
  const { invoice, payment, customer, company } = input;
  const stillDue = amountDueCents(invoice);
  const facts: Fact[] = [
    ['Invoice', invoice.number],
    ...forFacts(invoice, customer),
    ['Period', period(invoice)],
    ['Amount paid', formatCents(payment.amountCents)],
    ['Payment method', methodText(payment)],
    // The business's day of the payment, as its books count it.
    ['Payment date', day(businessDayOf(payment.paidAt))],
    ...(payment.reference ? ([['Reference', payment.reference]] as Fact[]) : []),
    ['Invoice total', formatCents(invoice.totalCents)],
    ['Still due', formatCents(stillDue)],
  ];
  const intro =
    stillDue > 0
      ? `We received your payment of ${formatCents(payment.amountCents)} for invoice ${invoice.number}. ${formatCents(stillDue)} is still due.`
      : `We received your payment of ${formatCents(payment.amountCents)} for invoice ${invoice.number}. The invoice is paid in full.`;
  const text = plainText(
    [
      greeting(customer),
      '',
      ...(input.resent ? ['Here is a copy of your receipt.', ''] : []),
      intro,
      '',
      ...factLines(facts),
      '',
    ],
    company,
  );
  const html = emailLayout(
    `<p>${escapeHtml(greeting(customer))}</p>
${input.resent ? '<p>Here is a copy of your receipt.</p>' : ''}
<p>${escapeHtml(intro)}</p>
${factTable(facts)}`,
    company,
  );
  return {
    to: customer.email,
    subject: `Receipt for invoice ${invoice.number}: ${formatCents(payment.amountCents)} received`,
    text,
    html,
    entity: 'invoice',
    entityId: invoice.id,
  };
}

/** A voided invoice: nothing is due on it any more; money received on it is refunded. */
export function invoiceVoidedEmail(input: {
  invoice: InvoiceEmailFacts;
  customer: Recipient;
  company: CompanyProfile;
  refundCents: number;
}): EmailMessage {
  const { invoice, customer, company, refundCents } = input;
  const intro =
    refundCents > 0
      ? `Invoice ${invoice.number} has been voided and the ${formatCents(refundCents)} you paid on it is being refunded.`
      : `Invoice ${invoice.number} has been voided. Nothing is due on it any more.`;
  const facts: Fact[] = [
    ['Invoice', invoice.number],
    ...forFacts(invoice, customer),
    ['Period', period(invoice)],
    ['Invoice total', formatCents(invoice.totalCents)],
    ...(refundCents > 0 ? ([['Refund', formatCents(refundCents)]] as Fact[]) : []),
  ];
  const opening = emailOpening(customer, intro, facts);
  const text = plainText(opening.lines, company);
  return {
    to: customer.email,
    subject: refundCents > 0 ? `Invoice ${invoice.number} voided and refunded` : `Invoice ${invoice.number} voided`,
    text,
    html: emailLayout(opening.html, company),
    entity: 'invoice',
    entityId: invoice.id,
  };
}

function methodText(payment: ReceiptFacts['payment']): string {
  return paymentMethodText(payment);
}

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
  customer: Recipient;
  company: CompanyProfile;
  portalUrl: string;
}): EmailMessage {
  const { creditNote, customer, company, portalUrl } = input;
  const facts = creditNoteFacts(creditNote);
  const intro = `We have issued credit note ${creditNote.number} of ${formatCents(creditNote.amountCents)} on invoice ${creditNote.invoiceNumber}.`;
  const reason = `Reason: ${creditNote.reason}`;
  const balance = balanceSentence(creditNote.toCreditBalanceCents);
  const portalNote = 'Sign in to the client portal to see and download the credit note.';
  const opening = emailOpening(customer, intro, facts);
  const text = plainText(
    [...opening.lines, reason, '', ...(balance ? [balance, ''] : []), `See it in the client portal: ${portalUrl}`, ''],
    company,
  );
  const html = emailLayout(
    `${opening.html}
<p>${escapeHtml(reason)}</p>
${balance ? `<p>${escapeHtml(balance)}</p>` : ''}
${emailButton(portalUrl, 'Open the client portal')}${addressLine(portalUrl)}<p style="color:#555">${escapeHtml(portalNote)}</p>`,
    company,
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
