import type { PaymentSetupDone, PaymentSetupStart, SetupCard, stripeSetupSchema } from '@shared/contracts/autopay';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

/** Saves the card of the set-up page: the method saved, or an error with the decline's message (400) or 410. */
export const savePaymentSetup = (token: string, card: SetupCard) =>
  api<PaymentSetupDone>('POST', `/api/setup/${encodeURIComponent(token)}`, card);

export function useSavePaymentSetup(token: string) {
  return useMutation({ mutationFn: (card: SetupCard) => savePaymentSetup(token, card) });
}

type StripeSetup = z.output<typeof stripeSetupSchema>;

/** With Stripe: the consent given here, then Stripe's page to enter the method (navigate to `url`). */
export const startStripeSetup = (token: string, body: StripeSetup) =>
  api<PaymentSetupStart>('POST', `/api/setup/${encodeURIComponent(token)}/stripe`, body);

export function useStartStripeSetup(token: string) {
  return useMutation({ mutationFn: (body: StripeSetup) => startStripeSetup(token, body) });
}
