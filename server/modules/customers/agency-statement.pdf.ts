import { STATEMENT_COMMISSION_LABELS, STATEMENT_ENTRY_LABELS } from '@shared/contracts/agencies';
import { AGING_BUCKET_LABELS, AGING_BUCKETS } from '@shared/contracts/receivables-vocabulary';
import { formatCents } from '@shared/money';
import {
  belowHeader,
  INK,
  type Letterhead,
  openPdf,
  type PdfColumn,
  type PdfRow,
  pdfBillTo,
  pdfClosing,
  pdfDay,
  pdfFacts,
  pdfFooter,
  pdfHeader,
  pdfTable,
  pdfTotals,
} from '../../lib/pdf';
import type { StatementData } from './agency-statement.service';

const STYLE = { fontSize: 8.5, detailSize: 7.5, rowGap: 5, ruleGap: 12, room: 110 };

/**
 * The agency statement as a PDF (pdfkit, US Letter), with the company's letterhead: the agency (billed to), the
 * range and balances, the entries with their running balance, the totals, the aging of the closing balance and
 * the commission totals; the payment instructions when something is owed, and the invoice footer.
 * `compress: false` keeps the content streams readable (tests read the text back).
 */
export function renderAgencyStatementPdf(
  data: StatementData & { letterhead: Letterhead },
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const { agency, figures, totals } = data;
  const period = `${pdfDay(data.from)} to ${pdfDay(data.to)}`;
  const { doc, done, frame } = openPdf({
    title: `Statement ${agency.name} ${data.from} to ${data.to}`,
    author: data.letterhead.company.legalName,
    subject: `Agency statement for ${agency.name}, ${period}`,
    compress: options.compress,
  });
  const headerBottom = pdfHeader(doc, frame, {
    letterhead: data.letterhead,
    title: 'Statement',
    number: agency.name,
    detail: period,
  });
  const top = belowHeader(headerBottom);
  const billTo = pdfBillTo(doc, frame, { ...agency, email: agency.billingEmail, advertiserName: null }, top);
  const facts = pdfFacts(
    doc,
    frame,
    [
      ['Period', period],
      ['Opening balance', formatCents(figures.openingCents)],
      ['Closing balance', formatCents(figures.closingCents)],
    ],
    top,
  );

  const { left } = frame;
  const columns: PdfColumn[] = [
    { label: 'DATE', x: left, width: 62 },
    { label: 'ENTRY', x: left + 64, width: 118 },
    { label: 'ADVERTISER', x: left + 184, width: 104 },
    { label: 'DUE', x: left + 290, width: 62 },
    { label: 'AMOUNT', x: left + 354, width: 70, align: 'right' },
    { label: 'COMMISSION', x: left + 426, width: 50, align: 'right' },
    { label: 'BALANCE', x: left + 478, width: null, align: 'right' },
  ];
  const rows: PdfRow[] = [
    { cells: [pdfDay(data.from), 'Opening balance', '', '', '', '', formatCents(figures.openingCents)] },
    ...data.entries.map((entry) => ({
      cells: [
        pdfDay(entry.date),
        `${STATEMENT_ENTRY_LABELS[entry.kind]} ${entry.number ?? ''}`.trim(),
        entry.advertiserName,
        entry.kind === 'invoice' ? pdfDay(entry.dueDate) : '',
        formatCents(entry.deltaCents),
        entry.kind === 'invoice' && entry.commissionMode
          ? `${formatCents(entry.commissionCents)} ${entry.commissionMode}`
          : '',
        formatCents(entry.balanceCents),
      ],
      detail:
        entry.kind === 'invoice'
          ? entry.contractName
          : `${entry.invoiceNumber}${entry.method ? `, ${entry.method}` : ''}${
              entry.kind === 'credit_note' && entry.documentCents !== -entry.deltaCents
                ? `, ${formatCents(entry.documentCents + entry.deltaCents)} to the credit balance`
                : ''
            }`,
    })),
  ];
  let y = pdfTable(doc, frame, columns, rows, Math.max(billTo, facts) + 24, STYLE);
  const valueX = left + 440;
  const total = (label: string, cents: number, strong = false) => [label, formatCents(cents), strong] as const;
  y = pdfTotals(
    doc,
    frame,
    [
      total('Opening balance', figures.openingCents),
      total('Invoiced', totals.invoicedCents),
      total('Credited', -totals.creditedCents),
      total('Paid', -totals.paidCents),
      ...(totals.refundedCents ? [total('Refunded', totals.refundedCents)] : []),
      total('Closing balance', figures.closingCents, true),
    ],
    y,
    valueX,
  );
  y = section(doc, left, y + 8, 'AGING OF THE CLOSING BALANCE');
  y = pdfTotals(
    doc,
    frame,
    AGING_BUCKETS.map((bucket) => total(AGING_BUCKET_LABELS[bucket], figures.agingCents[bucket])),
    y,
    valueX,
  );
  y = section(doc, left, y + 8, 'AGENCY COMMISSION');
  y = pdfTotals(
    doc,
    frame,
    [
      total(STATEMENT_COMMISSION_LABELS.net, figures.netCommissionCents),
      total(STATEMENT_COMMISSION_LABELS.gross, figures.grossCommissionCents),
      total(STATEMENT_COMMISSION_LABELS.total, figures.netCommissionCents + figures.grossCommissionCents, true),
    ],
    y,
    valueX,
  );
  pdfClosing(doc, frame, data.letterhead, y, { paymentDue: figures.closingCents > 0 });
  pdfFooter(doc, frame, `${data.letterhead.company.legalName} - Statement ${agency.name}, ${period}`);
  doc.end();
  return done;
}

/** A small heading over a block of totals, on a new page when the page is nearly full. */
function section(doc: Parameters<typeof pdfTotals>[0], left: number, top: number, label: string): number {
  let y = top;
  if (y > doc.page.height - 160) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(9).text(label, left, y);
  return doc.y + 4;
}
