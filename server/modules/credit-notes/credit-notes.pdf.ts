import { CREDIT_NOTE_KIND_LABELS, type CreditNote } from '@shared/contracts/credit-notes';
import { formatAmount } from '@shared/money';
import {
  INK,
  MUTED,
  openPdf,
  type PdfCustomer,
  type PdfDoc,
  type PdfFrame,
  pdfBillTo,
  pdfDay,
  pdfFacts,
  pdfHeader,
  RULE,
} from '../../lib/pdf';

export type CreditNotePdfData = {
  businessName: string;
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
 * The credit note as a PDF (pdfkit, US Letter), laid out like the invoice: the business, the credit note's
 * number, kind and issue date, the customer, the invoice it credits (number, period, total), the reason, and
 * the amounts: credited, its tax part, applied to the invoice and, when any, added to the credit balance.
 * `compress: false` keeps the content streams readable (tests read the text back).
 */
export function renderCreditNotePdf(data: CreditNotePdfData, options: { compress?: boolean } = {}): Promise<Buffer> {
  const { creditNote, customer } = data;
  const { doc, done, frame } = openPdf({
    title: `Credit note ${creditNote.number}`,
    author: data.businessName,
    subject: `Credit note ${creditNote.number} for ${customer.name}`,
    compress: options.compress,
  });

  header(doc, frame, data);
  let y = customerAndFacts(doc, frame, data, 130);
  y = creditedInvoice(doc, frame, data, y + 24);
  y = reason(doc, frame, creditNote.reason, y + 16);
  amounts(doc, frame, data, y + 16);
  footer(doc, frame, data);

  doc.end();
  return done;
}

/** The business on the left; the title, number and kind of the credit note on the right. */
function header(doc: Doc, frame: Frame, data: CreditNotePdfData): void {
  const { creditNote } = data;
  pdfHeader(doc, frame, {
    businessName: data.businessName,
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
function amounts(doc: Doc, { left, right, width }: Frame, data: CreditNotePdfData, top: number): void {
  const { creditNote, invoice } = data;
  const amountX = left + 450;
  doc.moveTo(left, top).lineTo(right, top).strokeColor(RULE).stroke();
  let y = top + 10;
  const rows: [string, string, boolean][] = [
    ['Credit amount', formatAmount(creditNote.amount), true],
    [`${invoice.taxLabel} (${invoice.taxRate}%, included)`, formatAmount(creditNote.tax), false],
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
  const notes = [`The credit amount includes ${invoice.taxLabel.toLowerCase()}; the amount shown is its tax part.`];
  if (creditNote.toCreditBalance > 0) {
    notes.push("The credit balance is applied automatically to the customer's next invoice.");
  }
  doc.fillColor(MUTED).font('Helvetica').fontSize(9);
  for (const note of notes) {
    doc.text(note, left, y + 4, { width, align: 'right' });
    y = doc.y;
  }
}

/**
 * The business and the credit note's number at the foot of the page. The line sits inside the bottom margin,
 * which pdfkit would otherwise take as the end of the page and start a blank second one for it.
 */
function footer(doc: Doc, { left, width }: Frame, data: CreditNotePdfData): void {
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8)
    .text(`${data.businessName} - Credit note ${data.creditNote.number}`, left, doc.page.height - 40, {
      width,
      align: 'center',
      lineBreak: false,
    });
  doc.page.margins.bottom = bottom;
}
