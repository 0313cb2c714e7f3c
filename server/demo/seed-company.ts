import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Storage } from '../lib/storage';
import { saveCompanyLogo, saveCompanyProfile } from '../modules/settings/settings.service';
import { demoLogoPng } from './demo-logo';

/**
 * The demo business's company profile and logo (Settings, "Company"), saved by the super admin through the
 * settings service as the tab saves them, before any document or e-mail is made: every invoice, credit note,
 * insertion order and customer e-mail of the demo prints them.
 */
export async function seedCompany(db: Db, options: { storage: Storage; businessName: string }): Promise<void> {
  const [admin] = await db.select().from(users).where(eq(users.email, 'superadmin@demo.test'));
  await saveCompanyProfile(db, admin, {
    legalName: `${options.businessName} LLC`,
    address: {
      street: '410 Harbor Street, Suite 300',
      city: 'Portland',
      state: 'OR',
      zip: '97204',
      country: 'United States',
    },
    phone: '+1 503 555 0142',
    billingEmail: 'billing@adcrm-media.example',
    website: 'https://adcrm-media.example',
    taxId: '93-4417785',
    paymentInstructions:
      'Wire or ACH to First Harbor Bank, account 004417785, routing 123000848. Put the invoice number in the reference.',
    invoiceFooter: 'Thank you for advertising with us. Questions about an invoice: billing@adcrm-media.example.',
  });
  await saveCompanyLogo({ db, storage: options.storage }, admin, demoLogoPng());
}
