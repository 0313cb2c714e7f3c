import { CREDIT_NOTE_KIND_LABELS, type CreditNote } from '@shared/contracts/credit-notes';
import { formatAmount } from '@shared/money';
import {
  belowHeader,
  INK,
  type Letterhead,
  MUTED,
  openPdf,
  type PdfCustomer,
  type PdfDoc,
  type PdfFrame,
  pdfBillTo,
  pdfClosing,
  pdfDay,
  pdfFacts,
  pdfFooter,
  pdfHeader,
  RULE,
} from '../../lib/pdf';

export type CreditNotePdfData = {
  /** The seller: today's company profile and logo (lib/company-profile.ts). */
  letterhead: Letterhead;
  creditNote: CreditNote;
  /** The invoice the credit note corrects, as it was issued. */
  invoice: {
    number: string;
    periodStart: string;
    periodEnd: string;
    total: number;
    taxLabel: string;
    taxRate: number;
    taxIncluded: boolean;
  };
  customer: PdfCustomer;
  contractName: string;
};

type Doc = PdfDoc;
type Frame = PdfFrame;
const day = pdfDay;

/**
 * The credit note as a PDF (pdfkit, US Letter), laid out like the invoice: the seller, the credit note's
 * number, kind and issue date, the customer, the invoice it credits (number, period, total), the reason, and
 * the amounts: credited, its tax part (none at a rate of 0), applied to the invoice and, when any, added to the
 * credit balance; the company's invoice footer.
 * `compress: false` keeps the content streams readable (tests read the text back).
 */
export function renderCreditNotePdf(data: CreditNotePdfData, options: { compress?: boolean } = {}): Promise<Buffer> {
  const { creditNote, customer } = data;
  const { doc, done, frame } = openPdf({
    title: `Credit note ${creditNote.number}`,
    author: data.letterhead.company.legalName,
    subject: `Credit note ${creditNote.number} for ${customer.name}`,
    compress: options.compress,
  });

  const headerBottom = header(doc, frame, data);
  let y = customerAndFacts(doc, frame, data, belowHeader(headerBottom));
  y = creditedInvoice(doc, frame, data, y + 24);
  y = reason(doc, frame, creditNote.reason, y + 16);
  y = amounts(doc, frame, data, y + 16);
  // Nothing is due on a credit note: no payment instructions.
  pdfClosing(doc, frame, data.letterhead, y, { paymentDue: false });
  pdfFooter(doc, frame, `${data.letterhead.company.legalName} - Credit note ${creditNote.number}`);

  doc.end();
  return done;
}

/** The seller on the left; the title, number and kind of the credit note on the right. */
function header(doc: Doc, frame: Frame, data: CreditNotePdfData): number {
  const { creditNote } = data;
  return pdfHeader(doc, frame, {
    letterhead: data.letterhead,
    title: 'Credit Note',
    number: creditNote.number,
    detail: `Type: ${CREDIT_NOTE_KIND_LABELS[creditNote.kind] ?? creditNote.kind}`,
  });
}

/** Bill to (as on the invoice) on the left, the credit note's facts on the right; returns the y below both. */
function customerAndFacts(doc: Doc, frame: Frame, data: CreditNotePdfData, top: number): number {
  const { creditNote, customer, invoice } = data;
  const billToBottom = pdfBillTo(doc, frame, customer, top);

  const facts: [string, string][] = [
    ['Credit note number', creditNote.number],
    ['Issued', day(creditNote.issuedAt)],
    ['Invoice number', invoice.number],
    ['Contract', data.contractName],
  ];
  return Math.max(billToBottom, pdfFacts(doc, frame, facts, top));
}

/** The invoice this credit note corrects: its number, billing period and total as issued. */
function creditedInvoice(doc: Doc, { left, right, width }: Frame, data: CreditNotePdfData, top: number): number {
  const { invoice } = data;
  doc.moveTo(left, top).lineTo(right, top).strokeColor(RULE).stroke();
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(`Credits invoice ${invoice.number}`, left, top + 10, { width });
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(10)
    .text(
      `Billing period ${day(invoice.periodStart)} to ${day(invoice.periodEnd)}, invoice total ${formatAmount(invoice.total)}`,
      left,
      doc.y + 2,
      { width },
    );
  return doc.y;
}

/** Why the credit note was issued, in the words of whoever issued it. */
function reason(doc: Doc, { left, width }: Frame, text: string, top: number): number {
  doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(9).text('REASON', left, top);
  doc
    .fillColor(INK)
    .font('Helvetica')
    .fontSize(10)
    .text(text, left, doc.y + 4, { width });
  return doc.y;
}

/**
 * The amounts, right-aligned like the invoice's totals. The credited amount includes tax (the invoice's
 * total is credited in the same terms), so its tax part is always shown as included, with the invoice's
 * tax label and rate; what exceeded the invoice's amount due went to the customer's credit balance.
 */
function amounts(doc: Doc, { left, right, width }: Frame, data: CreditNotePdfData, top: number): number {
  const { creditNote, invoice } = data;
  const amountX = left + 450;
  // No tax line at a rate of 0: there is no tax to speak of.
  const taxed = invoice.taxRate > 0;
  doc.moveTo(left, top).lineTo(right, top).strokeColor(RULE).stroke();
  let y = top + 10;
  const rows: [string, string, boolean][] = [
    ['Credit amount', formatAmount(creditNote.amount), true],
    ...(taxed
      ? [
          [`${invoice.taxLabel} (${invoice.taxRate}%, included)`, formatAmount(creditNote.tax), false] as [
            string,
            string,
            boolean,
          ],
        ]
      : []),
    [`Applied to invoice ${invoice.number}`, formatAmount(creditNote.appliedToInvoice), false],
  ];
  if (creditNote.toCreditBalance > 0) {
    rows.push(['Added to credit balance', formatAmount(creditNote.toCreditBalance), false]);
  }
  for (const [label, value, strong] of rows) {
    doc
      .fillColor(strong ? INK : MUTED)
      .font(strong ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(strong ? 11 : 10);
    doc.text(label, left + 200, y, { width: 240, align: 'right' });
    doc.text(value, amountX, y, { width: right - amountX, align: 'right' });
    y = doc.y + 5;
  }
  const notes = taxed
    ? [`The credit amount includes ${invoice.taxLabel.toLowerCase()}; the amount shown is its tax part.`]
    : [];
  if (creditNote.toCreditBalance > 0) {
    notes.push("The credit balance is applied automatically to the customer's next invoice.");
  }
  doc.fillColor(MUTED).font('Helvetica').fontSize(9);
  for (const note of notes) {
    doc.text(note, left, y + 4, { width, align: 'right' });
    y = doc.y;
  }
  return y;
}
