import type { Db } from '../db/client';

export type DemoCatalog = {
  /** The customers the two demo client accounts are linked to (each has contracts and invoices). */
  clientCustomerIds: [string, string];
  customerIds: string[];
  productIds: Record<string, string>;
  packageIds: string[];
};

/** Customers, the nine ad types as products (some with seasonal prices) and three packages. */
export async function seedCatalog(_db: Db): Promise<DemoCatalog> {
  throw new Error('The demo catalog is not written yet');
}
