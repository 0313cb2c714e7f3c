import PDFDocument from 'pdfkit';

/** What the business's documents (invoices, credit notes) share: the page, the header, the bill-to block. */

export type PdfDoc = InstanceType<typeof PDFDocument>;
/** The printable area of the page. */
export type PdfFrame = { left: number; right: number; width: number };

export type PdfCustomer = {
  name: string;
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

/** "Nov 15, 2026" for a YYYY-MM-DD day (or the day of an ISO timestamp). */
export function pdfDay(value: string): string {
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

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

/** The business on the left; the document's title, number and one more line (its status or kind) on the right. */
export function pdfHeader(
  doc: PdfDoc,
  { left, width }: PdfFrame,
  text: { businessName: string; title: string; number: string; detail: string },
): void {
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(text.businessName, left, 50, { width: width / 2 });
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text('Advertising services', left, doc.y + 2);
  doc.font('Helvetica-Bold').fontSize(22).fillColor(INK).text(text.title, left, 50, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(text.number, left, doc.y + 2, { width, align: 'right' });
  doc
    .fontSize(10)
    .fillColor(MUTED)
    .text(text.detail, left, doc.y + 2, { width, align: 'right' });
}

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
