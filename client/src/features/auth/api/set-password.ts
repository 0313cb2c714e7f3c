import type { SetPasswordInput, SetPasswordResponse } from '@shared/contracts/invitations';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Sets the password of a set-password link's account; it signs nobody in. */
export const setPassword = (input: SetPasswordInput) =>
  api<SetPasswordResponse>('POST', '/api/auth/set-password', input);

export function useSetPassword() {
  return useMutation({ mutationFn: setPassword });
}
