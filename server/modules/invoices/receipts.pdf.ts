import { formatCents, sumCents } from '@shared/money';
import {
  belowHeader,
  INK,
  type Letterhead,
  openPdf,
  type PdfCustomer,
  pdfBillTo,
  pdfClosing,
  pdfDay,
  pdfFacts,
  pdfFooter,
  pdfHeader,
  pdfTable,
  pdfTotals,
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
  const { left, width } = frame;

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
  y = pdfTable(
    doc,
    frame,
    [
      { label: 'INVOICE', x: cols.invoice, width: 125 },
      { label: 'PERIOD', x: cols.period, width: 165 },
      { label: 'INVOICE TOTAL', x: cols.total - 10, width: 80, align: 'right' },
      { label: 'PAID', x: cols.paid, width: 70, align: 'right' },
      { label: 'STILL DUE', x: cols.due, width: null, align: 'right' },
    ],
    data.invoices.map((invoice) => ({
      cells: [
        invoice.number,
        `${pdfDay(invoice.periodStart)} to ${pdfDay(invoice.periodEnd)}`,
        formatCents(invoice.totalCents),
        formatCents(invoice.paidCents),
        formatCents(invoice.dueCents),
      ],
    })),
    y,
    { fontSize: 10, detailSize: 8, rowGap: 8, ruleGap: 10, room: 160 },
  );

  const totals: [string, string, boolean][] = [
    ['Amount paid', formatCents(data.amountCents), true],
    ['Still due', formatCents(dueCents), false],
  ];
  y = pdfTotals(doc, frame, totals, y, cols.due);

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
