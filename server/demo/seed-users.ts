import type { Role } from '@shared/roles';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { hashPassword } from '../lib/password';

export const DEMO_PASSWORD = 'demo1234';

type DemoAccount = { email: string; firstName: string; lastName: string; role: Role; commissionRateBp?: number };

const ACCOUNTS: DemoAccount[] = [
  { email: 'superadmin@demo.test', firstName: 'Sam', lastName: 'Carter', role: 'super_admin', commissionRateBp: 0 },
  { email: 'admin@demo.test', firstName: 'Alex', lastName: 'Morgan', role: 'admin', commissionRateBp: 0 },
  { email: 'manager@demo.test', firstName: 'Morgan', lastName: 'Reyes', role: 'sales_manager', commissionRateBp: 300 },
  { email: 'sales@demo.test', firstName: 'Jordan', lastName: 'Blake', role: 'sales', commissionRateBp: 500 },
  { email: 'sales2@demo.test', firstName: 'Taylor', lastName: 'Nguyen', role: 'sales', commissionRateBp: 750 },
  { email: 'finance@demo.test', firstName: 'Casey', lastName: 'Patel', role: 'finance', commissionRateBp: 0 },
  { email: 'client@demo.test', firstName: 'Chris', lastName: 'Holiday', role: 'client', commissionRateBp: 0 },
  { email: 'client2@demo.test', firstName: 'Dana', lastName: 'Frost', role: 'client', commissionRateBp: 0 },
];

export type DemoPeople = { userIds: Record<string, string> };

/** One account per role, a second sales rep and a second client (each client linked to its own customer). */
export async function seedUsers(db: Db, opts: { clientCustomerIds: [string, string] }): Promise<DemoPeople> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const rows = await db
    .insert(users)
    .values(
      ACCOUNTS.map((a) => ({
        ...a,
        passwordHash,
        customerId:
          a.email === 'client@demo.test'
            ? opts.clientCustomerIds[0]
            : a.email === 'client2@demo.test'
              ? opts.clientCustomerIds[1]
              : null,
      })),
    )
    .returning({ id: users.id, email: users.email });
  return { userIds: Object.fromEntries(rows.map((r) => [r.email, r.id])) };
}

/** The agency's client account (product.md section 20): agency@demo.test, linked to the agency customer. */
const AGENCY_USER: DemoAccount = {
  email: 'agency@demo.test',
  firstName: 'Renee',
  lastName: 'Cardenas',
  role: 'client',
  commissionRateBp: 0,
};

/**
 * The agency client account, made as the other client accounts are (seedUsers), once its customer exists:
 * seed-agencies.ts calls it for Cardinal Media before sending its first contract.
 */
export async function seedAgencyUser(db: Db, opts: { customerId: string }): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ ...AGENCY_USER, passwordHash: await hashPassword(DEMO_PASSWORD), customerId: opts.customerId })
    .returning({ id: users.id });
  return row.id;
}
