import type { LoginResponse } from '@shared/contracts/auth';
import { object, string } from '../../lib/response-schema';
import { userResponse } from '../users/users.response';

/** POST /api/auth/login (lib/response-schema.ts): the session token and the user, never the password hash. */
export const loginResponse = object<LoginResponse>({ token: string, user: userResponse });
