import type { User } from '@shared/contracts/auth';
import { basisPointsToFraction } from '@shared/rates';
import type { Role } from '@shared/roles';
import type { users } from '../../db/schema';

/** A user row as the API shows it: never the password hash; the commission rate as a fraction. */
export function toUser(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    role: row.role as Role,
    commissionRate: basisPointsToFraction(row.commissionRateBp),
    isActive: row.isActive,
    customerId: row.customerId,
    createdAt: row.createdAt.toISOString(),
  };
}
