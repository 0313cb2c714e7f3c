import { inflateSync } from 'node:zlib';
import { companyAddressLines, companyContactLine, companyTaxIdLine } from '@shared/contracts/company-vocabulary';
import { advertiserBilledTo } from '@shared/contracts/contract-vocabulary';
import { formatDocumentDate } from '@shared/document-date';
import PDFDocument from 'pdfkit';
import type { Letterhead } from './company-profile';

/**
 * What the business's documents (invoices, credit notes, insertion orders, receipts) share: the page, the
 * header with the seller's company profile, the bill-to block, the facts, the closing (payment instructions,
 * the invoice footer) and the footer of every page.
 */

export type { Letterhead };

export type PdfDoc = InstanceType<typeof PDFDocument>;
/** The printable area of the page. */
export type PdfFrame = { left: number; right: number; width: number };

export type PdfCustomer = {
  name: string;
  /** The advertiser a document billed to its agency is for (product.md section 20); null or absent otherwise. */
  advertiserName?: string | null;
  email: string;
  company: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
};

export const INK = '#111827';
export const MUTED = '#6b7280';
export const RULE = '#e5e7eb';

/** "Nov 15, 2026" for a YYYY-MM-DD day (or the day of an ISO timestamp): the documents' one date format. */
export const pdfDay = formatDocumentDate;

/**
 * A US Letter document with its metadata, the bytes it will have once `doc.end()` is called, and its frame.
 * `compress: false` keeps the content streams readable (tests read the text back).
 */
export function openPdf(info: { title: string; author: string; subject: string; compress?: boolean }) {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 50,
    compress: info.compress ?? true,
    // Pages stay in memory until the end, so the footer can be written on each (pdfFooter).
    bufferPages: true,
    info: { Title: info.title, Author: info.author, Subject: info.subject },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const frame: PdfFrame = { left, right, width: right - left };
  return { doc, done, frame };
}

/** An image pdfkit has read (its `openImage`, which its typings leave out): a PNG also has its parsed file. */
type OpenedImage = { width: number; height: number; image?: { imgData: Uint8Array; pixelBitlength: number } };
const openImage = (doc: PdfDoc, bytes: Buffer) =>
  (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes);

/**
 * The size in pixels of an image the documents can print (a PNG or JPEG pdfkit reads), or null when they
 * cannot, or when it is larger than `maxPixels` a side. A PNG's pixel data is inflated here once, bounded by
 * what its size allows: pdfkit decodes it later without a way to report a damaged file, so a file that would
 * fail there is refused on upload instead.
 */
export function printableImageSize(bytes: Buffer, maxPixels: number): { width: number; height: number } | null {
  let image: OpenedImage;
  try {
    image = openImage(new PDFDocument({ autoFirstPage: false }), bytes);
  } catch {
    return null;
  }
  const { width, height } = image;
  if (!(width > 0 && height > 0) || width > maxPixels || height > maxPixels) return null;
  const png = image.image;
  if (png) {
    // Each row holds a filter byte; an interlaced image's passes hold a few more rows than the whole.
    const rowBytes = Math.ceil((width * png.pixelBitlength) / 8) + 1;
    try {
      inflateSync(png.imgData, { maxOutputLength: rowBytes * height * 2 + 1024 });
    } catch {
      return null;
    }
  }
  return { width, height };
}

/** The logo's box in the header: at most this wide and high, its proportions kept. */
const LOGO_BOX = { width: 150, height: 50 };

/**
 * The document's head. On the left the seller, from the company profile of the day the document is made: the
 * logo, the legal name, the address, phone, billing e-mail and website, and the tax ID. On the right the
 * document's title, number and one more line (its status or kind). Answers the y below both.
 */
export function pdfHeader(
  doc: PdfDoc,
  { left, width }: PdfFrame,
  text: { letterhead: Letterhead; title: string; number: string; detail: string },
): number {
  const { company, logo } = text.letterhead;
  const column = width / 2 - 10;
  let y = 50;
  if (logo) {
    const image = openImage(doc, logo.bytes);
    const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height, 1);
    // pdfkit takes the image it has read in place of the bytes (and reads them only once).
    doc.image(image as unknown as Buffer, left, y, { width: image.width * scale, height: image.height * scale });
    y += image.height * scale + 8;
  }
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(logo ? 14 : 18)
    .text(company.legalName, left, y, { width: column });
  doc.font('Helvetica').fontSize(8.5).fillColor(MUTED);
  // Phone and e-mail on one line, the website on its own (a half-page column holds about 55 characters).
  const lines = [
    ...companyAddressLines(company.address),
    companyContactLine({ phone: company.phone, billingEmail: company.billingEmail, website: null }),
    company.website,
    companyTaxIdLine(company),
  ].filter((line): line is string => Boolean(line));
  for (const line of lines) doc.text(line, left, doc.y + 1, { width: column });
  const leftBottom = doc.y;

  doc.font('Helvetica-Bold').fontSize(22).fillColor(INK).text(text.title, left, 50, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(text.number, left, doc.y + 2, { width, align: 'right' });
  doc
    .fontSize(10)
    .fillColor(MUTED)
    .text(text.detail, left, doc.y + 2, { width, align: 'right' });
  return Math.max(leftBottom, doc.y);
}

/**
 * Where a document's content starts below its header: the place documents have always put the bill-to block,
 * or lower when the seller's lines run longer.
 */
export const belowHeader = (headerBottom: number) => Math.max(130, headerBottom + 20);

/** BILL TO and the customer's name, company, address and e-mail, on the left half; returns the y below it. */
export function pdfBillTo(doc: PdfDoc, { left, width }: PdfFrame, customer: PdfCustomer, top: number): number {
  doc.fillColor(MUTED).fontSize(9).font('Helvetica-Bold').text('BILL TO', left, top);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(customer.name, left, doc.y + 4, { width: width / 2 });
  doc.font('Helvetica').fontSize(10);
  const cityLine = [customer.city, [customer.state, customer.zipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  for (const line of [customer.company, customer.address, cityLine, customer.country, customer.email]) {
    if (line) doc.text(line, left, doc.y + 1, { width: width / 2 });
  }
  if (customer.advertiserName) {
    doc
      .fillColor(MUTED)
      .fontSize(9)
      .text(advertiserBilledTo(customer.advertiserName, customer.name), left, doc.y + 4, { width: width / 2 });
    doc.fillColor(INK);
  }
  return doc.y;
}

/**
 * The document's facts beside the bill-to block (right half): a muted label, its value right-aligned.
 * Answers where the block ends.
 */
export function pdfFacts(doc: PdfDoc, { left, width }: PdfFrame, facts: [string, string][], top: number): number {
  let y = top;
  for (const [label, value] of facts) {
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(9)
      .text(label, left + width / 2, y, { width: 90 });
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(value, left + width / 2 + 95, y, { width: width / 2 - 95, align: 'right' });
    y = doc.y + 4;
  }
  return y;
}

/**
 * How a document closes, after its content (from `y`, on the current page or a new one when it does not fit):
 * the company's payment instructions when something is due on it (bank details for a wire, say), then its
 * invoice footer, centred. Nothing when the profile has neither. Answers the y below it.
 */
export function pdfClosing(
  doc: PdfDoc,
  { left, width }: PdfFrame,
  letterhead: Letterhead,
  y: number,
  options: { paymentDue: boolean },
): number {
  const { paymentInstructions, invoiceFooter } = letterhead.company;
  const instructions = options.paymentDue ? paymentInstructions : null;
  if (!instructions && !invoiceFooter) return y;
  doc.font('Helvetica').fontSize(9);
  const needed =
    (instructions ? doc.heightOfString(instructions, { width }) + 20 : 0) +
    (invoiceFooter ? doc.fontSize(8.5).heightOfString(invoiceFooter, { width }) + 12 : 0);
  let top = y + 20;
  if (top + needed > doc.page.height - doc.page.margins.bottom) {
    doc.addPage();
    top = doc.page.margins.top;
  }
  if (instructions) {
    doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(9).text('PAYMENT INSTRUCTIONS', left, top, { width });
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(9)
      .text(instructions, left, doc.y + 3, { width });
    top = doc.y + 12;
  }
  if (invoiceFooter) {
    doc.fillColor(MUTED).font('Helvetica').fontSize(8.5).text(invoiceFooter, left, top, { width, align: 'center' });
    top = doc.y;
  }
  return top;
}

/** A column of a document's table: its heading, where it starts, its width (null: to the right edge), its side. */
export type PdfColumn = { label: string; x: number; width: number | null; align?: 'left' | 'right' };

/**
 * The heading row of a document's table (an invoice's or an IO's lines, a receipt's invoices): each column's
 * label in small bold capitals over a rule across the frame. Answers the y where the first row starts. Called
 * again at the top of each new page the table runs onto.
 */
export function pdfTableHeader(
  doc: PdfDoc,
  { left, right }: PdfFrame,
  columns: readonly PdfColumn[],
  top: number,
  size: { fontSize: number; rule: number; rowGap: number } = { fontSize: 9, rule: 14, rowGap: 8 },
): number {
  doc.fillColor(MUTED).font('Helvetica-Bold').fontSize(size.fontSize);
  for (const column of columns) {
    doc.text(column.label, column.x, top, { width: column.width ?? right - column.x, align: column.align ?? 'left' });
  }
  doc
    .moveTo(left, top + size.rule)
    .lineTo(right, top + size.rule)
    .strokeColor(RULE)
    .stroke();
  return top + size.rule + size.rowGap;
}

/** One row of a document's table: a text per column, and under the first one an optional detail in small print. */
export type PdfRow = { cells: readonly string[]; detail?: string | null };

export type PdfTableStyle = {
  /** The heading's size (pdfTableHeader). */
  header?: { fontSize: number; rule: number; rowGap: number };
  fontSize: number;
  detailSize: number;
  /** Space under each row, and under the closing rule. */
  rowGap: number;
  ruleGap: number;
  /** A row that would start lower than this above the page's bottom goes on a new page, under the heading again. */
  room: number;
};

/**
 * A document's table (an invoice's or an IO's lines, a receipt's invoices): the heading, each row's cells in
 * their columns (a new page, with the heading again, when the page is full), and a rule under the last row.
 * Answers the y under the rule.
 */
export function pdfTable(
  doc: PdfDoc,
  frame: PdfFrame,
  columns: readonly PdfColumn[],
  rows: readonly PdfRow[],
  top: number,
  style: PdfTableStyle,
): number {
  const { left, right } = frame;
  const header = (at: number) => pdfTableHeader(doc, frame, columns, at, style.header);
  const widthOf = (column: PdfColumn) => column.width ?? right - column.x;
  let y = header(top);
  for (const row of rows) {
    if (y > doc.page.height - style.room) {
      doc.addPage();
      y = header(50);
    }
    const [first, ...others] = columns;
    doc.fillColor(INK).font('Helvetica').fontSize(style.fontSize);
    doc.text(row.cells[0] ?? '', first.x, y, { width: widthOf(first) });
    if (row.detail) {
      doc
        .fillColor(MUTED)
        .fontSize(style.detailSize)
        .text(row.detail, first.x, doc.y + 1, { width: widthOf(first) });
      doc.fillColor(INK).fontSize(style.fontSize);
    }
    const rowBottom = doc.y;
    others.forEach((column, i) => {
      doc.text(row.cells[i + 1] ?? '', column.x, y, { width: widthOf(column), align: column.align ?? 'left' });
    });
    y = Math.max(rowBottom, doc.y) + style.rowGap;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).stroke();
  return y + style.ruleGap;
}

/**
 * The totals under a table, right-aligned: each label in a column that ends where `valueX` starts, its value
 * from there to the right edge; the strong ones (Total, Amount due) larger and in bold. Answers the y under them.
 */
export function pdfTotals(
  doc: PdfDoc,
  { left, right }: PdfFrame,
  totals: readonly (readonly [label: string, value: string, strong: boolean])[],
  top: number,
  valueX: number,
): number {
  let y = top;
  for (const [label, value, strong] of totals) {
    doc
      .fillColor(strong ? INK : MUTED)
      .font(strong ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(strong ? 11 : 10);
    doc.text(label, left + 250, y, { width: 190, align: 'right' });
    doc.text(value, valueX, y, { width: right - valueX, align: 'right' });
    y = doc.y + 5;
  }
  return y;
}

/**
 * The footer of every page ("<text> - Page 1 of 2"), written once the content is done. It sits inside the
 * bottom margin: writing there with the margin in force would make pdfkit start a new page for it (the
 * blank last page invoices once had), so the margin is lifted while it is written.
 */
export function pdfFooter(doc: PdfDoc, { left, width }: PdfFrame, text: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const label = range.count > 1 ? `${text} - Page ${i - range.start + 1} of ${range.count}` : text;
    doc
      .fillColor(MUTED)
      .font('Helvetica')
      .fontSize(8)
      .text(label, left, doc.page.height - 40, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}
