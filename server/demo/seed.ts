import type { Config } from '../config';
import type { Db } from '../db/client';
import { setDefaultLegalName } from '../lib/company-profile';
import { createStorage } from '../lib/storage';
import { seedAccounting } from './seed-accounting';
import { seedAgencies } from './seed-agencies';
import { seedAmendments } from './seed-amendments';
import { seedBilling } from './seed-billing';
import { seedCatalog } from './seed-catalog';
import { seedCommissions } from './seed-commissions';
import { seedCompany } from './seed-company';
import { seedContracts } from './seed-contracts';
import { seedCreditNotes } from './seed-credit-notes';
import { seedDeals } from './seed-deals';
import { seedFirstRefusal } from './seed-first-refusal';
import { seedInsertionOrders } from './seed-insertion-orders';
import { seedInventory } from './seed-inventory';
import { seedRenewals } from './seed-renewals';
import { seedUsers } from './seed-users';

/**
 * The demo business: its company profile and logo, accounts for every role (password demo1234), customers, the nine ad types as
 * products, packages and contracts in every status, the holiday season's inventory partly sold, the account
 * codes of the accounting export (nothing exported yet), contracts at each renewal step (one renewed), and a
 * renewal hold live and one lapsed; customers paying by autopay (a soft decline recovered, a hard decline waiting
 * for a new card, a card expiring this month); two agencies, one billed net and one gross, with their advertisers'
 * contracts and a year of invoices. Deterministic: the same data on every start.
 */
export async function seedDemo(
  db: Db,
  config: Pick<Config, 'DATA_DIR' | 'STORAGE_URL' | 'BUSINESS_NAME'>,
): Promise<void> {
  // Insertion orders' PDFs go where the server will read them (DATA_DIR/uploads, or STORAGE_URL).
  const documents = { storage: createStorage(config) };
  setDefaultLegalName(config.BUSINESS_NAME);
  const catalog = await seedCatalog(db);
  const people = await seedUsers(db, { clientCustomerIds: catalog.clientCustomerIds });
  // Before any document or e-mail: they all print the company profile.
  await seedCompany(db, { ...documents, businessName: config.BUSINESS_NAME });
  await seedContracts(db, { ...catalog, ...people });
  await seedBilling(db, { businessName: config.BUSINESS_NAME });
  await seedAmendments(db);
  await seedCommissions(db);
  await seedCreditNotes(db);
  await seedInventory(db, documents);
  await seedAccounting(db);
  await seedRenewals(db, documents);
  await seedFirstRefusal(db, documents);
  await seedInsertionOrders(db, documents);
  await seedDeals(db, documents);
  // Last: the seeds above choose their customers by name, and these are new customers with back-dated contracts.
  await seedAgencies(db, documents);
}
