import { deliveryNote, formatMonth, pacingText } from '@shared/contracts/delivery';
import { invoiceLineDetail } from '@shared/contracts/invoice-vocabulary';
import type { Invoice } from '@shared/contracts/invoices';
import { PAYMENT_METHOD_LABELS } from '@shared/contracts/invoices';
import { type InvoiceState, invoiceState } from '@shared/invoice-state';
import { amountToCents, formatAmount, formatCents } from '@shared/money';
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
  pdfTable,
  pdfTotals,
} from '../../lib/pdf';

export type InvoicePdfData = {
  /** The seller: today's company profile and logo (lib/company-profile.ts). */
  letterhead: Letterhead;
  invoice: Invoice;
  customer: PdfCustomer;
  contractName: string;
  /** The business day the PDF is made on (YYYY-MM-DD): what "Overdue" is counted from. */
  today: string;
  /** Where the customer pays (the contract's pay link, or the client portal), printed while something is due. */
  pay: { kind: 'pay_link' | 'portal'; url: string } | null;
};

const impressions = new Intl.NumberFormat('en-US');

/**
 * Proof of performance (product.md section 12): each CPM line's booked and delivered impressions for the
 * invoice's period, and how a shortfall was settled. Nothing when the invoice has no CPM line.
 */
function proofOfPerformance(
  doc: PDFKit.PDFDocument,
  frame: { left: number; right: number; width: number },
  invoice: Invoice,
  top: number,
): number {
  if (invoice.delivery.length === 0) return top;
  const { left, right } = frame;
  let y = top + 16;
  if (y > doc.page.height - 160) {
    doc.addPage();
    y = 50;
  }
  doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(9).text('PROOF OF PERFORMANCE', left, y);
  y = doc.y + 4;
  const cols = { line: left, booked: left + 230, delivered: left + 310, pacing: left + 390 };
  doc.font('Helvetica-Bold').fontSize(8);
  doc.text('LINE', cols.line, y, { width: 220 });
  doc.text('BOOKED', cols.booked, y, { width: 75, align: 'right' });
  doc.text('DELIVERED', cols.delivered, y, { width: 75, align: 'right' });
  doc.text('PACING', cols.pacing, y, { width: right - cols.pacing, align: 'right' });
  y = doc.y + 4;
  for (const period of invoice.delivery) {
    if (y > doc.page.height - 80) {
      doc.addPage();
      y = 50;
    }
    doc.fillColor(INK).font('Helvetica').fontSize(9);
    doc.text(`${period.productName}, ${formatMonth(period.month)}`, cols.line, y, { width: 220 });
    const rowBottom = doc.y;
    doc.text(impressions.format(period.booked), cols.booked, y, { width: 75, align: 'right' });
    doc.text(period.delivered === null ? 'Not reported' : impressions.format(period.delivered), cols.delivered, y, {
      width: 75,
      align: 'right',
    });
    doc.text(pacingText(period.booked, period.delivered), cols.pacing, y, {
      width: right - cols.pacing,
      align: 'right',
    });
    y = Math.max(rowBottom, doc.y) + 1;
    const note = deliveryNote(period);
    if (note) {
      doc
        .fillColor(MUTED)
        .fontSize(8)
        .text(note, cols.line, y, { width: right - left });
      y = doc.y;
    }
    y += 5;
  }
  return y;
}

const STAMPS: Partial<Record<InvoiceState, { text: string; color: string }>> = {
  paid: { text: 'PAID', color: '#15803d' },
  void: { text: 'VOID', color: '#b91c1c' },
  credited: { text: 'CREDITED', color: '#1d4ed8' },
  overdue: { text: 'OVERDUE', color: '#b91c1c' },
};

const brandName = (brand: string | null) => (brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : 'Card');
const day = pdfDay;

/**
 * The invoice as a PDF (pdfkit, US Letter): the seller's company profile, number, customer, period, lines (a
 * net-billed agency invoice's negative commission line last), subtotal (then the net of the agency's commission,
 * billed net), tax label and rate (no tax line at a rate of 0), total, amounts paid and due, due date, where to pay while something is due, and its
 * state today (invoice-state.ts: "Overdue", "Partly paid, $X due", ...) with a stamp for paid, void,
 * credited and overdue; the company's payment instructions while something is due, and its invoice footer.
 * `compress: false` keeps the content streams readable (tests read the text back).
 */
export function renderInvoicePdf(data: InvoicePdfData, options: { compress?: boolean } = {}): Promise<Buffer> {
  const { invoice, customer } = data;
  const cents = {
    status: invoice.status,
    totalCents: amountToCents(invoice.total),
    amountPaidCents: amountToCents(invoice.amountPaid),
    creditedCents: amountToCents(invoice.credited),
    dueDate: invoice.dueDate,
  };
  const state = invoiceState(cents, data.today);
  const { doc, done, frame } = openPdf({
    title: `Invoice ${invoice.number}`,
    author: data.letterhead.company.legalName,
    subject: `Invoice ${invoice.number} for ${customer.name}`,
    compress: options.compress,
  });
  const { left, right, width } = frame;

  // Header: the seller, and the invoice's number and status.
  const headerBottom = pdfHeader(doc, frame, {
    letterhead: data.letterhead,
    title: 'INVOICE',
    number: invoice.number,
    detail: `Status: ${state.label}`,
  });

  // Bill to, and the invoice's dates.
  const blockTop = belowHeader(headerBottom);
  const billToBottom = pdfBillTo(doc, frame, customer, blockTop);
  const facts: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Issued', day(invoice.periodStart)],
    ['Billing period', `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`],
    ['Due date', day(invoice.dueDate)],
    ['Contract', data.contractName],
  ];
  const factsBottom = pdfFacts(doc, frame, facts, blockTop);

  // Lines.
  const cols = { description: left, quantity: left + 260, unit: left + 300, discount: left + 380, amount: left + 450 };
  let y = Math.max(billToBottom, factsBottom) + 24;
  y = pdfTable(
    doc,
    frame,
    [
      { label: 'DESCRIPTION', x: cols.description, width: 250 },
      { label: 'QTY', x: cols.quantity, width: 35, align: 'right' },
      { label: 'UNIT PRICE', x: cols.unit, width: 75, align: 'right' },
      { label: 'DISCOUNT', x: cols.discount, width: 65, align: 'right' },
      { label: 'AMOUNT', x: cols.amount, width: null, align: 'right' },
    ],
    invoice.lines.map((line) => ({
      cells: [
        line.seasonal ? `${line.description} (seasonal price)` : line.description,
        String(line.quantity),
        formatAmount(line.unitPrice),
        line.discount > 0 ? `-${formatAmount(line.discount)}` : '',
        formatAmount(line.amount),
      ],
      detail: invoiceLineDetail(line),
    })),
    y,
    { fontSize: 10, detailSize: 8, rowGap: 8, ruleGap: 10, room: 200 },
  );

  // Totals (the state's stamp goes beside them, on the left, on their page).
  const totalsTop = y;
  const totalsPage = doc.bufferedPageRange().count - 1;
  // No tax line at a rate of 0: there is no tax to speak of.
  const taxed = invoice.taxRate > 0;
  const taxName = `${invoice.taxLabel} (${invoice.taxRate}%${invoice.taxIncluded ? ', included' : ''})`;
  // Billed net to an agency: the lines end with its negative commission line; tax and the total are on the net.
  const net =
    invoice.agencyBillingMode === 'net'
      ? [
          [
            'Net of agency commission',
            formatCents(amountToCents(invoice.subtotal) - amountToCents(invoice.agencyCommission)),
            false,
          ] as [string, string, boolean],
        ]
      : [];
  const totals: [string, string, boolean][] = [
    ['Subtotal', formatAmount(invoice.subtotal), false],
    ...net,
    ...(taxed ? [[taxName, formatAmount(invoice.tax), false] as [string, string, boolean]] : []),
    ['Total', formatAmount(invoice.total), true],
    ['Amount paid', formatAmount(invoice.amountPaid), false],
    ...(invoice.creditApplied > 0
      ? [['  of which credit applied', formatAmount(invoice.creditApplied), false] as [string, string, boolean]]
      : []),
    ...invoice.creditNotes.map((note): [string, string, boolean] => [
      `Credit note ${note.number}`,
      `-${formatAmount(note.amount)}`,
      false,
    ]),
    ['Amount due', formatAmount(invoice.amountDue), true],
  ];
  if (invoice.refunded > 0) totals.push(['Refunded', formatAmount(invoice.refunded), false]);
  y = pdfTotals(doc, frame, totals, y, cols.amount);
  if (taxed && invoice.taxIncluded) {
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(9)
      .text(
        `Prices include ${invoice.taxLabel.toLowerCase()}; the amount shown is the tax part of the total.`,
        left + 250,
        y,
        {
          width: right - left - 250,
          align: 'right',
        },
      );
    y = doc.y + 5;
  }

  // Where to pay, while something is due: the contract's pay link, or the client portal.
  if (data.pay && invoice.amountDue > 0) {
    y += 12;
    const words =
      data.pay.kind === 'pay_link'
        ? `Pay ${formatAmount(invoice.amountDue)} online: ${data.pay.url}`
        : `Pay ${formatAmount(invoice.amountDue)} in the client portal: ${data.pay.url}`;
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(10).text(words, left, y, { width, link: data.pay.url });
    y = doc.y + 5;
  }

  y = proofOfPerformance(doc, frame, invoice, y);

  // Payments received.
  const received = invoice.payments.filter((p) => p.status === 'succeeded');
  if (received.length) {
    y += 16;
    doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(9).text('PAYMENTS', left, y);
    y = doc.y + 4;
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    for (const p of received) {
      const how =
        p.method === 'card' && p.cardLast4
          ? `${brandName(p.cardBrand)} ending in ${p.cardLast4}`
          : p.method === 'card_on_file' && p.cardLast4
            ? `card on file (${brandName(p.cardBrand)} ending in ${p.cardLast4})`
            : (PAYMENT_METHOD_LABELS[p.method] ?? p.method);
      const sign = p.kind === 'refund' ? '-' : '';
      doc.text(
        `${day(p.paidAt)}  ${p.kind === 'refund' ? 'Refund' : 'Payment'} by ${how}${p.reference ? ` (${p.reference})` : ''}`,
        left,
        y,
        {
          width: 380,
        },
      );
      doc.text(`${sign}${formatAmount(p.amount)}`, cols.amount, y, { width: right - cols.amount, align: 'right' });
      y = doc.y + 3;
    }
  }
  if (invoice.status === 'void' && invoice.voidReason) {
    y += 12;
    doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(`Voided: ${invoice.voidReason}`, left, y, { width });
    y = doc.y;
  }

  // How the document closes: payment instructions while something is due, the invoice footer.
  pdfClosing(doc, frame, data.letterhead, y, { paymentDue: invoice.status !== 'void' && invoice.amountDue > 0 });

  // The stamp: the state a reader must not miss (paid, void, credited in full, overdue).
  const stamp = STAMPS[state.state];
  if (stamp) {
    const x = left + 20;
    const top = totalsTop + 10;
    doc.switchToPage(totalsPage);
    doc.font('Helvetica-Bold').fontSize(30);
    const stampWidth = Math.max(160, doc.widthOfString(stamp.text) + 30);
    doc.save();
    doc.rotate(-12, { origin: [x + stampWidth / 2, top + 26] });
    doc.roundedRect(x, top, stampWidth, 52, 6).lineWidth(3).strokeColor(stamp.color).stroke();
    doc.fillColor(stamp.color).text(stamp.text, x, top + 11, { width: stampWidth, align: 'center', lineBreak: false });
    doc.restore();
  }

  pdfFooter(doc, frame, `${data.letterhead.company.legalName} - Invoice ${invoice.number}`);
  doc.end();
  return done;
}
