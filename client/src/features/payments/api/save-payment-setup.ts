import type { PaymentSetupDone, SetupCard } from '@shared/contracts/autopay';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Saves the card of the set-up page: the method saved, or an error with the decline's message (400) or 410. */
export const savePaymentSetup = (token: string, card: SetupCard) =>
  api<PaymentSetupDone>('POST', `/api/setup/${encodeURIComponent(token)}`, card);

export function useSavePaymentSetup(token: string) {
  return useMutation({ mutationFn: (card: SetupCard) => savePaymentSetup(token, card) });
}
