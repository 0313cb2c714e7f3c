import type { Role } from '../roles';

export { type LoginInput, loginSchema } from './login';

/** The signed-in user as the API returns it (never the password hash). */
export type User = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  /** A fraction: 0.05 is 5%. */
  commissionRate: number;
  isActive: boolean;
  customerId: string | null;
  createdAt: string;
};

export type LoginResponse = { token: string; user: User };
