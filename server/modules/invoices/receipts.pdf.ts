import { formatCents, sumCents } from '@shared/money';
import {
  belowHeader,
  INK,
  type Letterhead,
  MUTED,
  openPdf,
  type PdfCustomer,
  pdfBillTo,
  pdfClosing,
  pdfDay,
  pdfFacts,
  pdfFooter,
  pdfHeader,
  pdfTableHeader,
  RULE,
} from '../../lib/pdf';

/** What a receipt prints: the payment, each invoice it went to, what is still due on them, the contract's name. */
export type ReceiptPdfData = {
  /** The seller as the documents print it: the company profile and logo (lib/pdf.ts pdfHeader). */
  letterhead: Letterhead;
  customer: PdfCustomer;
  contractName: string;
  /** YYYY-MM-DD: the business day the money moved. */
  paidOn: string;
  /** "Visa ending in 4242", "Wire transfer" */
  method: string;
  reference: string | null;
  amountCents: number;
  invoices: {
    number: string;
    periodStart: string;
    periodEnd: string;
    totalCents: number;
    /** What this payment paid on it. */
    paidCents: number;
    /** What is still due on it now. */
    dueCents: number;
  }[];
};

/** The receipt's number line: its invoice, or the first of several. */
export function receiptSubject(numbers: readonly string[]): string {
  if (numbers.length <= 1) return numbers[0] ?? '';
  return `${numbers[0]} and ${numbers.length - 1} more`;
}

/**
 * A payment's receipt as a PDF (pdfkit, US Letter), on the documents' shared page, header, bill-to block and
 * footer (lib/pdf.ts): the amount paid, its date and method, each invoice it paid with what is still due on it,
 * and the contract's name. `compress: false` keeps the content streams readable.
 */
export function renderReceiptPdf(data: ReceiptPdfData, options: { compress?: boolean } = {}): Promise<Buffer> {
  const numbers = data.invoices.map((invoice) => invoice.number);
  const subject = receiptSubject(numbers);
  const { doc, done, frame } = openPdf({
    title: `Receipt for ${subject}`,
    author: data.letterhead.company.legalName,
    subject: `Receipt for ${subject}: ${formatCents(data.amountCents)} from ${data.customer.name}`,
    compress: options.compress,
  });
  const { left, right, width } = frame;

  const headerBottom = pdfHeader(doc, frame, {
    letterhead: data.letterhead,
    title: 'RECEIPT',
    number: subject,
    detail: `Paid ${pdfDay(data.paidOn)}`,
  });

  const blockTop = belowHeader(headerBottom);
  const billToBottom = pdfBillTo(doc, frame, data.customer, blockTop);
  const dueCents = sumCents(data.invoices.map((invoice) => invoice.dueCents));
  const facts: [string, string][] = [
    [numbers.length > 1 ? 'Invoices' : 'Invoice', numbers.join(', ')],
    ['Amount paid', formatCents(data.amountCents)],
    ['Payment date', pdfDay(data.paidOn)],
    ['Payment method', data.method],
    ...(data.reference ? ([['Reference', data.reference]] as [string, string][]) : []),
    ['Contract', data.contractName],
    ['Still due', formatCents(dueCents)],
  ];
  const factsBottom = pdfFacts(doc, frame, facts, blockTop);

  // Each invoice the payment went to.
  const cols = { invoice: left, period: left + 130, total: left + 300, paid: left + 375, due: left + 450 };
  let y = Math.max(billToBottom, factsBottom) + 24;
  const header = (top: number) =>
    pdfTableHeader(
      doc,
      frame,
      [
        { label: 'INVOICE', x: cols.invoice, width: 125 },
        { label: 'PERIOD', x: cols.period, width: 165 },
        { label: 'INVOICE TOTAL', x: cols.total - 10, width: 80, align: 'right' },
        { label: 'PAID', x: cols.paid, width: 70, align: 'right' },
        { label: 'STILL DUE', x: cols.due, width: null, align: 'right' },
      ],
      top,
    );
  y = header(y);
  for (const invoice of data.invoices) {
    if (y > doc.page.height - 160) {
      doc.addPage();
      y = header(50);
    }
    doc.fillColor(INK).font('Helvetica').fontSize(10);
    doc.text(invoice.number, cols.invoice, y, { width: 125 });
    doc.text(`${pdfDay(invoice.periodStart)} to ${pdfDay(invoice.periodEnd)}`, cols.period, y, { width: 165 });
    doc.text(formatCents(invoice.totalCents), cols.total - 10, y, { width: 80, align: 'right' });
    doc.text(formatCents(invoice.paidCents), cols.paid, y, { width: 70, align: 'right' });
    doc.text(formatCents(invoice.dueCents), cols.due, y, { width: right - cols.due, align: 'right' });
    y = doc.y + 8;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).stroke();
  y += 10;

  const totals: [string, string, boolean][] = [
    ['Amount paid', formatCents(data.amountCents), true],
    ['Still due', formatCents(dueCents), false],
  ];
  for (const [label, value, strong] of totals) {
    doc
      .fillColor(strong ? INK : MUTED)
      .font(strong ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(strong ? 11 : 10);
    doc.text(label, left + 250, y, { width: 190, align: 'right' });
    doc.text(value, cols.due, y, { width: right - cols.due, align: 'right' });
    y = doc.y + 5;
  }

  y += 16;
  doc
    .fillColor(INK)
    .font('Helvetica')
    .fontSize(10)
    .text(
      dueCents > 0
        ? `Thank you for your payment. ${formatCents(dueCents)} is still due on ${numbers.length > 1 ? 'these invoices' : 'this invoice'}.`
        : `Thank you for your payment. ${numbers.length > 1 ? 'These invoices are' : 'This invoice is'} paid in full.`,
      left,
      y,
      { width },
    );
  // Where to pay the rest, when something is still due, and the company's footer.
  pdfClosing(doc, frame, data.letterhead, doc.y + 16, { paymentDue: dueCents > 0 });

  pdfFooter(doc, frame, `${data.letterhead.company.legalName} - Receipt for ${subject}`);
  doc.end();
  return done;
}
