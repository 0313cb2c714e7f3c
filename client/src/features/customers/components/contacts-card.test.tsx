import type { Contact } from '@shared/contracts/contacts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { customerContactsQueryOptions } from '../api/get-customer-contacts';
import { ContactsCard } from './contacts-card';

const CUSTOMER = 'cu-1';

const contact = (fields: Partial<Contact>): Contact => ({
  id: 'ct-1',
  customerId: CUSTOMER,
  name: 'Giulia Russo',
  role: 'Accounts payable',
  email: 'ap@bellanotte.example',
  phone: '555-0100',
  notes: null,
  isPrimary: false,
  isBilling: false,
  createdAt: '2026-11-02T12:00:00.000Z',
  updatedAt: '2026-11-02T12:00:00.000Z',
  ...fields,
});

function render(rows: Contact[] | undefined, canWrite: boolean) {
  const client = new QueryClient();
  if (rows)
    client.setQueryData(customerContactsQueryOptions(CUSTOMER).queryKey, {
      rows,
      total: rows.length,
      totalIsLowerBound: false,
    });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ContactsCard customerId={CUSTOMER} customerName="Bella Notte Trattoria" canWrite={canWrite} />
    </QueryClientProvider>,
  );
}

/** The page's text without its markup. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

describe('the Contacts card', () => {
  const giulia = contact({ id: 'ct-1', isBilling: true });
  const marco = contact({ id: 'ct-2', name: 'Marco Bianchi', role: null, email: null, phone: null, isPrimary: true });
  const pat = contact({ id: 'ct-3', name: 'Pat Lee', role: 'Designer', email: 'pat@bellanotte.example' });

  it('marks the primary and the billing contact in words, and says where invoices go', () => {
    const html = render([marco, giulia, pat], false);
    const text = textOf(html);
    expect(text).toContain('Invoices and receipts go to Giulia Russo (ap@bellanotte.example), the billing contact.');
    expect(text).toMatch(/Marco Bianchi Primary/);
    expect(text).toMatch(/Giulia Russo Billing Accounts payable/);
    expect(html.match(/data-testid="contact-row"/g)).toHaveLength(3);
    expect(html).toContain('href="mailto:ap@bellanotte.example"');
    // A reader sees no actions.
    expect(text).not.toContain('Make primary');
    expect(text).not.toContain('Add contact');
  });

  it('offers those who change customers add, edit, make primary, make billing and delete; billing needs an e-mail', () => {
    const html = render([marco, giulia, pat], true);
    expect(html).toContain('Add contact');
    expect(html).toContain('aria-label="Make Giulia Russo the primary contact"');
    expect(html).not.toContain('aria-label="Make Marco Bianchi the primary contact"');
    expect(html).not.toContain('aria-label="Make Giulia Russo the billing contact"');
    expect(html).toContain('aria-label="Make Pat Lee the billing contact"');
    // Marco has no e-mail address: he cannot be the billing contact until one is added.
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Make Marco Bianchi the billing contact"/);
    expect(html).toContain('aria-label="Delete Pat Lee"');
    expect(html).toContain('aria-label="Edit Marco Bianchi"');
  });

  it("says the customer's e-mail receives invoices while there is no billing contact, and when there are no contacts", () => {
    expect(textOf(render([marco], true))).toContain(
      "Invoices and receipts go to the customer's e-mail until a contact is made the billing contact.",
    );
    expect(textOf(render([], true))).toContain(
      'No contacts yet. Add the people you deal with: one can be the primary contact, one the billing contact.',
    );
    expect(textOf(render([], false))).toContain('No contacts yet.');
    expect(render(undefined, true)).toContain('aria-busy="true"');
  });
});
