import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import type { CreditNote } from '@shared/contracts/credit-notes';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/pdf';
import { creditNoteIssuedEmail } from '../invoices/invoices.emails';
import { type CreditNotePdfData, renderCreditNotePdf } from './credit-notes.pdf';

const creditNote: CreditNote = {
  id: '0b6f7c1e-3f4a-4c1d-9d1e-2a7b5c9e8f01',
  number: 'CN-2026-000007',
  kind: 'partial',
  reason: 'Two spots missed in week 3',
  invoiceId: '5d2c1a7e-8b9f-4e3d-a1c2-b3d4e5f60718',
  invoiceNumber: 'INV-2026-000042',
  contractId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  customerId: '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9',
  customerName: 'Snowfall Cinemas',
  amount: 120,
  tax: 9.15,
  appliedToInvoice: 80,
  toCreditBalance: 40,
  issuedAt: '2026-03-14T16:05:00.000Z',
  exports: [],
};

/** The seller's company profile (Settings, Company), printed in the header and at the end. */
const company: CompanyProfile = {
  legalName: 'Northwind Ads LLC',
  address: {
    street: '400 Harbor Way, Suite 12',
    city: 'Portland',
    state: 'OR',
    zip: '97204',
    country: 'United States',
  },
  phone: '+1 503 555 0142',
  billingEmail: 'billing@northwind.example.test',
  website: 'https://northwind.example.test',
  taxId: '93-4417785',
  paymentInstructions: 'Wire to First Harbor Bank, account 004417785',
  invoiceFooter: 'Thank you for advertising with Northwind.',
};

const pdfData: CreditNotePdfData = {
  letterhead: { company, logo: null },
  creditNote,
  invoice: {
    number: 'INV-2026-000042',
    periodStart: '2026-02-01',
    periodEnd: '2026-02-28',
    total: 480,
    taxLabel: 'Sales tax',
    taxRate: 8.25,
    taxIncluded: true,
  },
  customer: {
    name: 'Snowfall Cinemas',
    email: 'billing@snowfall.example.test',
    company: 'Snowfall Cinemas LLC',
    address: '12 Main St',
    city: 'Austin',
    state: 'TX',
    zipCode: '78701',
    country: 'USA',
  },
  contractName: 'Snowfall holiday pre-roll',
};

describe('credit note PDF', () => {
  it('shows the business, number, issue date, credited invoice, customer, reason, kind and amounts', async () => {
    const pdf = await renderCreditNotePdf(pdfData, { compress: false });
    const raw = pdf.toString('latin1');
    expect(raw.startsWith('%PDF-')).toBe(true);
    expect(raw).not.toContain('FlateDecode');
    expect(raw.match(/\/Count (\d+)/)?.[1], 'pages').toBe('1');
    const text = pdfText(pdf);
    for (const expected of [
      'Credit Note',
      'Northwind Ads LLC',
      '400 Harbor Way, Suite 12',
      'Portland, OR 97204',
      'United States',
      '+1 503 555 0142 · billing@northwind.example.test',
      'https://northwind.example.test',
      'Tax ID: 93-4417785',
      'Thank you for advertising with Northwind.',
      'Northwind Ads LLC - Credit note CN-2026-000007',
      'CN-2026-000007',
      'Issued',
      'Mar 14, 2026',
      'Credits invoice INV-2026-000042',
      'Feb 1, 2026 to Feb 28, 2026',
      '$480.00',
      'Snowfall Cinemas',
      'Snowfall Cinemas LLC',
      '12 Main St',
      'Austin, TX 78701',
      'USA',
      'billing@snowfall.example.test',
      'Snowfall holiday pre-roll',
      'Two spots missed in week 3',
      'Type: Credit',
      'Credit amount',
      '$120.00',
      'Sales tax (8.25%, included)',
      '$9.15',
      'Applied to invoice INV-2026-000042',
      '$80.00',
      'Added to credit balance',
      '$40.00',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Nothing is due on a credit note: no payment instructions.
    expect(text).not.toContain('PAYMENT INSTRUCTIONS');
    expect(text).not.toContain('First Harbor Bank');
  });

  it('prints no tax line when the invoice it credits had a tax rate of 0', async () => {
    const pdf = await renderCreditNotePdf(
      {
        ...pdfData,
        creditNote: { ...creditNote, tax: 0 },
        invoice: { ...pdfData.invoice, taxLabel: 'Tax', taxRate: 0, taxIncluded: false },
      },
      { compress: false },
    );
    const text = pdfText(pdf);
    expect(text).toContain('Credit amount');
    expect(text).not.toContain('Tax (0%');
    expect(text).not.toContain('includes tax');
  });

  it('leaves out the credit balance when all of the credit lowered the amount due; a long reason fits the page', async () => {
    // The longest reason a credit note takes: 1000 characters.
    const longReason = `${'Spot not aired. '.repeat(62)}Week 12.`;
    expect(longReason.length).toBe(1000);
    const pdf = await renderCreditNotePdf(
      {
        ...pdfData,
        creditNote: {
          ...creditNote,
          kind: 'delivery',
          reason: longReason,
          appliedToInvoice: 120,
          toCreditBalance: 0,
        },
      },
      { compress: false },
    );
    expect(pdf.toString('latin1').match(/\/Count (\d+)/)?.[1], 'pages').toBe('1');
    const text = pdfText(pdf);
    expect(text).toContain('Type: Under-delivery');
    expect(text).toContain('Applied to invoice INV-2026-000042');
    expect(text).not.toContain('credit balance');
  });

  it('is compressed by default and still a PDF', async () => {
    const pdf = await renderCreditNotePdf(pdfData);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('FlateDecode');
    expect(pdfText(pdf)).toContain('CN-2026-000007');
  });
});

describe('credit note e-mail', () => {
  const facts = {
    id: '0b6f7c1e-3f4a-4c1d-9d1e-2a7b5c9e8f01',
    number: 'CN-2026-000007',
    reason: 'Two spots missed in week 3',
    amountCents: 120_00,
    appliedToInvoiceCents: 80_00,
    toCreditBalanceCents: 40_00,
    invoiceNumber: 'INV-2026-000042',
    contractName: 'Snowfall holiday pre-roll',
  };
  const customer = { name: 'Snowfall Cinemas', email: 'billing@snowfall.example.test', contactPerson: null };
  const portalUrl = 'https://crm.example.test/portal';

  it('tells the customer what was credited, why, and where to see it', () => {
    const mail = creditNoteIssuedEmail({ creditNote: facts, customer, company, portalUrl });
    expect(mail.to).toBe('billing@snowfall.example.test');
    expect(mail.subject).toBe('Credit note CN-2026-000007 for invoice INV-2026-000042');
    expect(mail.entity).toBe('credit_note');
    expect(mail.entityId).toBe('0b6f7c1e-3f4a-4c1d-9d1e-2a7b5c9e8f01');
    for (const line of [
      'Hello Snowfall Cinemas,',
      'Credit note: CN-2026-000007',
      'Invoice: INV-2026-000042',
      'Contract: Snowfall holiday pre-roll',
      'Amount: $120.00',
      'Applied to the invoice: $80.00',
      'Added to your credit balance: $40.00',
      'Reason: Two spots missed in week 3',
      'The $40.00 added to your credit balance is applied automatically to your next invoice.',
      'https://crm.example.test/portal',
    ]) {
      expect(mail.text, line).toContain(line);
    }
    // Signed by the company, its footer last.
    expect(mail.text).toContain(
      [
        'Thank you,',
        'Northwind Ads LLC',
        '',
        '-- ',
        'Northwind Ads LLC',
        '400 Harbor Way, Suite 12',
        'Portland, OR 97204',
        'United States',
        '+1 503 555 0142 · billing@northwind.example.test · https://northwind.example.test',
        'Tax ID: 93-4417785',
      ].join('\n'),
    );
    expect(mail.html).toContain('Portland, OR 97204<br>United States');
    for (const part of [
      '<strong>CN-2026-000007</strong>',
      '<strong>$120.00</strong>',
      '<strong>$40.00</strong>',
      'Added to your credit balance',
      'href="https://crm.example.test/portal"',
      'applied automatically to your next invoice',
    ]) {
      expect(mail.html, part).toContain(part);
    }
  });

  it('says nothing of a credit balance when all of the credit lowered the amount due', () => {
    const mail = creditNoteIssuedEmail({
      creditNote: { ...facts, appliedToInvoiceCents: 120_00, toCreditBalanceCents: 0 },
      customer,
      company,
      portalUrl,
    });
    expect(mail.text).toContain('Applied to the invoice: $120.00');
    expect(mail.text).not.toContain('credit balance');
    expect(mail.text).not.toContain('next invoice');
    expect(mail.html).not.toContain('credit balance');
    expect(mail.html).not.toContain('next invoice');
  });

  it('escapes the reason and names in the HTML part', () => {
    const mail = creditNoteIssuedEmail({
      creditNote: {
        ...facts,
        reason: '<script>alert("x")</script> & more',
        contractName: 'Fall <b>promo</b>',
      },
      customer: { name: "O'Hara <img src=x>", email: 'ohara@example.test', contactPerson: null },
      company: { ...company, legalName: 'Rock & <Roll> Media' },
      portalUrl,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>promo');
    expect(mail.html).toContain('Reason: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(mail.html).toContain('Hello O&#39;Hara &lt;img src=x&gt;,');
    expect(mail.html).toContain('Fall &lt;b&gt;promo&lt;/b&gt;');
    expect(mail.html).toContain('Rock &amp; &lt;Roll&gt; Media');
    expect(mail.html).not.toContain('<Roll>');
    // The plain-text part carries the words as written.
    expect(mail.text).toContain('Reason: <script>alert("x")</script> & more');
  });
});
