import type { Db } from '../db/client';
import type { Storage } from '../lib/storage';

/** Insertion orders of the demo business (filled in below). */
export async function seedInsertionOrders(
  _db: Db,
  _options: { storage: Storage; businessName: string },
): Promise<void> {}
