import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { advertiserBilledTo, PAYMENT_MODE_LABELS } from '@shared/contracts/contract-vocabulary';
import { IO_EVENT_LABELS, type IoEventType, type IoFigures } from '@shared/contracts/insertion-orders';
import { adTypeLabel, priceMetricDescription } from '@shared/contracts/product-vocabulary';
import { formatDocumentInstant } from '@shared/document-date';
import { formatAmount } from '@shared/money';
import type { CompanyLogo } from '../../lib/company-profile';
import {
  belowHeader,
  INK,
  type Letterhead,
  MUTED,
  openPdf,
  type PdfDoc,
  type PdfFrame,
  pdfBillTo,
  pdfClosing,
  pdfDay,
  pdfFacts,
  pdfFooter,
  pdfHeader,
  pdfTable,
} from '../../lib/pdf';

/**
 * What an insertion order's PDF prints, all of it from the version's snapshot (insertion_orders.snapshot):
 * rendering the same snapshot again gives the same pages, which the signed file reuses.
 */
export type IoSnapshot = {
  contractId: string;
  contractNumber: string;
  version: number;
  /** The seller's legal name (as `company.legalName`; the only seller field of versions sent before profiles). */
  businessName: string;
  /** The company profile of the day the version was sent: every rendering of it prints this one. */
  company?: CompanyProfile;
  /** The logo of that day: its stored object, which a later logo never replaces. */
  logo?: Pick<CompanyLogo, 'storageKey' | 'contentType' | 'sha256'> | null;
  sentAt: string;
  customer: {
    name: string;
    email: string;
    company: string | null;
    address: string | null;
    city: string | null;
    state: string | null;
    zipCode: string | null;
    country: string | null;
  };
  /**
   * Billed to the advertiser's agency (product.md section 20): `customer` above is the agency and this is the
   * advertiser; the IO names both. Absent when the customer itself is billed (and in versions sent before agencies).
   */
  advertiser?: { name: string };
  figures: IoFigures;
};

/** One line of the signing certificate: an event of the version with where it came from. */
export type CertificateEvent = {
  type: IoEventType;
  at: string;
  ip: string | null;
  userAgent: string | null;
  detail: string | null;
};

export type SigningCertificate = {
  signerName: string;
  signerEmail: string;
  acceptedAt: string;
  /** SHA-256 of the original PDF's bytes, as sent. */
  originalSha256: string;
  events: CertificateEvent[];
};

const BOTTOM = 90;

/**
 * The IO as sent: its pages, and the content fingerprint in every page's footer. `letterhead` is the snapshot's
 * company profile with its logo's bytes (insertion-orders.service.ts, ioLetterhead).
 */
export function renderIoPdf(
  snapshot: IoSnapshot,
  contentSha256: string,
  letterhead: Letterhead,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const { doc, done, frame } = openIoDoc(snapshot, options.compress, 'Insertion order');
  ioPages(doc, frame, snapshot, letterhead);
  pdfFooter(doc, frame, `Document fingerprint (SHA-256): ${contentSha256}`);
  doc.end();
  return done;
}

/**
 * The signed file: the same IO pages from the same snapshot, then the signing certificate (each event with its
 * time, IP and user agent, the original file's SHA-256 and the content fingerprint).
 */
export function renderSignedIoPdf(
  snapshot: IoSnapshot,
  contentSha256: string,
  certificate: SigningCertificate,
  letterhead: Letterhead,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const { doc, done, frame } = openIoDoc(snapshot, options.compress, 'Signed insertion order');
  ioPages(doc, frame, snapshot, letterhead);
  doc.addPage();
  certificatePage(doc, frame, snapshot, contentSha256, certificate, letterhead);
  pdfFooter(doc, frame, `Document fingerprint (SHA-256): ${contentSha256}`);
  doc.end();
  return done;
}

function openIoDoc(snapshot: IoSnapshot, compress: boolean | undefined, kind: string) {
  return openPdf({
    title: `${kind} ${snapshot.contractNumber} version ${snapshot.version}`,
    author: snapshot.company?.legalName ?? snapshot.businessName,
    subject: `${kind} for ${snapshot.customer.name}`,
    compress,
  });
}

const money = (amount: number) => formatAmount(amount);

function ensureRoom(doc: PdfDoc, y: number, needed = 60): number {
  if (y > doc.page.height - BOTTOM - needed) {
    doc.addPage();
    return 50;
  }
  return y;
}

function sectionTitle(doc: PdfDoc, { left }: PdfFrame, title: string, top: number): number {
  const y = ensureRoom(doc, top + 14);
  doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(9).text(title, left, y);
  return doc.y + 4;
}

function ioPages(doc: PdfDoc, frame: PdfFrame, snapshot: IoSnapshot, letterhead: Letterhead): void {
  const { left, right, width } = frame;
  const f = snapshot.figures;
  const headerBottom = pdfHeader(doc, frame, {
    letterhead,
    title: 'INSERTION ORDER',
    number: `${snapshot.contractNumber} - Version ${snapshot.version}`,
    detail: `Sent ${pdfDay(snapshot.sentAt)}`,
  });
  const blockTop = belowHeader(headerBottom);
  const billTo = pdfBillTo(doc, frame, snapshot.customer, blockTop);
  const term =
    f.termMonths === null
      ? 'Indefinite'
      : `${f.termMonths} months${f.autoStopDate ? ` (until ${pdfDay(f.autoStopDate)})` : ''}`;
  const facts: [string, string][] = [
    ['Contract', f.title ?? snapshot.contractNumber],
    ['Sales rep', f.salesRepName ?? 'Unassigned'],
    ['Start date', pdfDay(f.startDate)],
    ['Term', term],
    ['Payment', PAYMENT_MODE_LABELS[f.paymentMode].label],
  ];
  // No tax line at a rate of 0: there is no tax to speak of.
  if (f.taxRate > 0) facts.push(['Tax', `${f.taxLabel} ${f.taxRate}%${f.taxIncluded ? ' (included)' : ''}`]);
  let y = Math.max(billTo, pdfFacts(doc, frame, facts, blockTop)) + 20;
  if (snapshot.advertiser) {
    // "Advertiser: Bella Notte Trattoria — Billed to: Cardinal Media"
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(advertiserBilledTo(snapshot.advertiser.name, snapshot.customer.name), left, y - 8, { width });
    y = doc.y + 16;
  }

  // Lines with their flights, metrics, prices and discounts.
  const cols = {
    item: left,
    qty: left + 200,
    unit: left + 235,
    season: left + 300,
    discount: left + 370,
    total: left + 435,
  };
  y = pdfTable(
    doc,
    frame,
    [
      { label: 'ITEM', x: cols.item, width: 195 },
      { label: 'QTY', x: cols.qty, width: 30, align: 'right' },
      { label: 'UNIT PRICE', x: cols.unit, width: 60, align: 'right' },
      { label: 'IN SEASON', x: cols.season, width: 65, align: 'right' },
      { label: 'DISCOUNT', x: cols.discount, width: 60, align: 'right' },
      { label: 'LINE TOTAL', x: cols.total, width: null, align: 'right' },
    ],
    f.lines.map((line) => {
      const flight = `${pdfDay(line.flightStart)} to ${line.flightEnd ? pdfDay(line.flightEnd) : 'the end of the contract'}`;
      // "Pre-roll Video Ad · CPM, per 1000 impressions · Flight: Dec 1, 2026 to Dec 31, 2026"
      const kind = [line.adType ? adTypeLabel(line.adType) : null, priceMetricDescription(line.priceMetric)];
      return {
        cells: [
          line.description,
          String(line.quantity),
          money(line.unitPrice),
          line.seasonalPrice === null ? '-' : money(line.seasonalPrice),
          line.discount > 0 ? `-${money(line.discount)}` : '',
          line.seasonalLineTotal !== line.lineTotal
            ? `${money(line.lineTotal)} (${money(line.seasonalLineTotal)} in season)`
            : money(line.lineTotal),
        ],
        detail: [...kind.filter(Boolean), `Flight: ${flight}`].join(' · '),
      };
    }),
    y,
    {
      header: { fontSize: 8, rule: 12, rowGap: 6 },
      fontSize: 9,
      detailSize: 7.5,
      rowGap: 6,
      ruleGap: 8,
      room: BOTTOM + 40,
    },
  );

  // The figures the customer agrees to.
  const rows: [string, string][] = [];
  if (f.packageName) rows.push([`Package: ${f.packageName}`, `${money(f.packagePrice)} / month`]);
  if (f.setupFee > 0) rows.push(['Setup fee (one-time)', money(f.setupFee)]);
  rows.push(['Monthly amount', `${money(f.monthlyAmount)} / month`]);
  if (f.seasonalMonthlyAmount !== f.monthlyAmount) {
    rows.push(['In season (Oct-Dec)', `${money(f.seasonalMonthlyAmount)} / month`]);
  }
  rows.push(['First invoice', money(f.firstInvoiceAmount)]);
  for (const [label, value] of rows) {
    y = ensureRoom(doc, y, 20);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(9)
      .text(label, left + width / 2, y, { width: 150 });
    doc
      .fillColor(INK)
      .fontSize(9)
      .text(value, left + width / 2 + 150, y, { width: width / 2 - 150, align: 'right' });
    y = doc.y + 3;
  }

  if (f.oneTimeCharges.length > 0) {
    y = sectionTitle(doc, frame, 'ONE-TIME CHARGES', y);
    for (const charge of f.oneTimeCharges) {
      y = ensureRoom(doc, y, 20);
      doc.fillColor(INK).font('Helvetica').fontSize(9);
      doc.text(`${charge.description}, on the invoice of ${pdfDay(charge.billedOn)}`, left, y, { width: width - 100 });
      doc.text(money(charge.amount), right - 100, y, { width: 100, align: 'right' });
      y = doc.y + 3;
    }
  }

  // The 12-month schedule, as the billing engine will issue it.
  y = sectionTitle(doc, frame, 'BILLING SCHEDULE (NEXT 12 INVOICES)', y);
  const sched = { period: left, due: left + 260, total: left + 380 };
  doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(8);
  doc.text('PERIOD', sched.period, y, { width: 250 });
  doc.text('DUE', sched.due, y, { width: 110 });
  doc.text('TOTAL', sched.total, y, { width: right - sched.total, align: 'right' });
  y = doc.y + 3;
  for (const item of f.schedule) {
    y = ensureRoom(doc, y, 16);
    doc.fillColor(INK).font('Helvetica').fontSize(9);
    doc.text(`${pdfDay(item.periodStart)} to ${pdfDay(item.periodEnd)}`, sched.period, y, { width: 250 });
    doc.text(pdfDay(item.dueDate), sched.due, y, { width: 110 });
    doc.text(money(item.total), sched.total, y, { width: right - sched.total, align: 'right' });
    y = doc.y + 2;
  }
  if (f.schedule.length === 0) {
    doc.fillColor(MUTED).font('Helvetica').fontSize(9).text('No invoices are scheduled.', left, y);
    y = doc.y + 2;
  }

  // The terms text from Contract Settings.
  y = sectionTitle(doc, frame, 'TERMS', y + 6);
  doc.fillColor(INK).font('Helvetica').fontSize(8.5).text(f.terms, left, y, { width, align: 'justify' });

  // The company's closing words; nothing is due on the order itself (its invoices carry the instructions).
  pdfClosing(doc, frame, letterhead, doc.y, { paymentDue: false });
}

function certificatePage(
  doc: PdfDoc,
  frame: PdfFrame,
  snapshot: IoSnapshot,
  contentSha256: string,
  certificate: SigningCertificate,
  letterhead: Letterhead,
): void {
  const { left, width } = frame;
  const headerBottom = pdfHeader(doc, frame, {
    letterhead,
    title: 'SIGNING CERTIFICATE',
    number: `Insertion order ${snapshot.contractNumber}, version ${snapshot.version}`,
    detail: `Signed ${pdfDay(certificate.acceptedAt)}`,
  });
  let y = belowHeader(headerBottom);
  const facts: [string, string][] = [
    ['Signed by', certificate.signerName],
    ['Link sent to', certificate.signerEmail],
    ['Accepted at', formatDocumentInstant(certificate.acceptedAt)],
    ['Original PDF SHA-256', certificate.originalSha256],
    ['Document fingerprint (SHA-256 of the content)', contentSha256],
  ];
  for (const [label, value] of facts) {
    doc.fillColor(MUTED).font('Helvetica').fontSize(8).text(label, left, y, { width });
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(value, left, doc.y + 1, { width });
    y = doc.y + 8;
  }
  y = sectionTitle(doc, frame, 'EVENTS', y);
  for (const event of certificate.events) {
    y = ensureRoom(doc, y, 40);
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(9)
      .text(`${IO_EVENT_LABELS[event.type]} - ${formatDocumentInstant(event.at)}`, left, y, { width });
    const where = [`IP: ${event.ip ?? 'not recorded'}`, `User agent: ${event.userAgent ?? 'not recorded'}`];
    if (event.detail) where.push(event.detail);
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(where.join('\n'), left, doc.y + 1, { width });
    y = doc.y + 8;
  }
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8)
    .text(
      'The pages before this certificate are the insertion order as sent, rendered again from its recorded content. ' +
        'The document fingerprint is the SHA-256 of that content; the original PDF SHA-256 is that of the file the ' +
        'customer was sent.',
      left,
      y + 6,
      { width },
    );
}
