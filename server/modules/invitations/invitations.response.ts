import type { AccessLinkResponse, SetPasswordResponse } from '@shared/contracts/invitations';
import { boolean, object, string } from '../../lib/response-schema';

/** POST /api/auth/set-password (lib/response-schema.ts): only these fields are ever sent. */
export const setPasswordResponse = object<SetPasswordResponse>({ message: string, email: string });

/** POST /api/customers/{id}/invite and POST /api/users/{id}/send-password-reset. */
export const accessLinkResponse = object<AccessLinkResponse>({
  message: string,
  userId: string,
  email: string,
  accountCreated: boolean,
  link: string,
});
