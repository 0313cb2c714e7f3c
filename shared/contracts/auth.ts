import { z } from 'zod';
import type { Role } from '../roles';

export const loginSchema = z.object({
  email: z.string({ message: 'Please enter a valid email address' }).trim().email('Please enter a valid email address'),
  password: z
    .string({ message: 'Password is required' })
    .min(1, 'Password is required')
    .max(200, 'Password is too long'),
});
export type LoginInput = z.infer<typeof loginSchema>;

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
