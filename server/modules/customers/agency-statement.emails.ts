import { formatDocumentDate } from '@shared/document-date';
import { formatCents } from '@shared/money';
import {
  type CustomerRecipient,
  type EmailSender,
  emailLayout,
  emailOpening,
  type Fact,
  plainText,
} from '../../lib/email';
import type { EmailMessage, OutboxAttachment } from '../../lib/mailer';
import type { StatementData } from './agency-statement.service';

/**
 * The monthly statement e-mail (product.md section 20): to the agency's billing contact, greeting it, with the
 * month's balances in the text and the statement attached as a PDF and a CSV; it ends with the company's footer.
 */
export function agencyStatementEmail(input: {
  data: StatementData;
  recipient: CustomerRecipient;
  sender: EmailSender;
  attachments: OutboxAttachment[];
}): EmailMessage {
  const { data, recipient, sender } = input;
  const period = `${formatDocumentDate(data.from)} to ${formatDocumentDate(data.to)}`;
  const facts: Fact[] = [
    ['Period', period],
    ['Opening balance', formatCents(data.figures.openingCents)],
    ['Closing balance', formatCents(data.figures.closingCents)],
    ['Invoices', String(data.entries.filter((entry) => entry.kind === 'invoice').length)],
  ];
  const opening = emailOpening(
    recipient,
    `Your statement for ${period} is attached, as a PDF and as a CSV file.`,
    facts,
  );
  return {
    to: recipient.email,
    subject: `Statement for ${data.agency.name}: ${period}`,
    text: plainText(opening.lines, sender),
    html: emailLayout(opening.html, sender),
    entity: 'customer',
    entityId: data.agency.id,
    attachments: input.attachments,
  };
}
