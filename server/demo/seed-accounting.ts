import type { AccountingSettings } from '@shared/contracts/accounting-vocabulary';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { saveAccountingSettings } from '../modules/accounting/accounting.service';

/**
 * The demo business's chart of accounts, set as an admin sets it on the Settings screen's "Accounting" tab
 * (through the same service): revenue per ad type, tax, receivables, bank, card clearing and customer credit,
 * Xero's and QuickBooks' usual US tax names, and US dates. Nothing is exported yet: finance makes the first batch.
 */
export const DEMO_ACCOUNT_CODES: AccountingSettings = {
  revenueAccounts: {
    pre_roll: '4010',
    mid_roll: '4011',
    post_roll: '4012',
    banner: '4020',
    in_category: '4021',
    overlay: '4022',
    ad_on_pause: '4023',
    timed_qr: '4030',
    ctn_special: '4040',
  },
  otherRevenueAccount: '4900',
  taxAccount: '2200',
  receivablesAccount: '1200',
  bankAccount: '1000',
  cardClearingAccount: '1050',
  customerCreditAccount: '2300',
  xeroTaxType: 'Tax on Sales',
  xeroNoTaxType: 'Tax Exempt',
  quickbooksTaxCode: 'TAX',
  quickbooksNoTaxCode: 'NON',
  dateFormat: 'MM/DD/YYYY',
};

export async function seedAccounting(db: Db): Promise<void> {
  const [admin] = await db.select().from(users).where(eq(users.email, 'admin@demo.test'));
  if (!admin) return;
  await saveAccountingSettings(db, admin, DEMO_ACCOUNT_CODES);
}
