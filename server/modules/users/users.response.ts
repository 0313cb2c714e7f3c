import type { User } from '@shared/contracts/auth';
import { boolean, nullableString, number, object, string } from '../../lib/response-schema';

/** A user as the API answers it (lib/response-schema.ts): never the password hash, whatever the row holds. */
export const userResponse = object<User>({
  id: string,
  firstName: string,
  lastName: string,
  email: string,
  role: string,
  commissionRate: number,
  isActive: boolean,
  customerId: nullableString,
  createdAt: string,
});
