import { zodResolver } from '@hookform/resolvers/zod';
import { SAVE_CARD_LABEL } from '@shared/contracts/autopay';
import { type CardPayment, type CardPaymentValues, cardPaymentSchema } from '@shared/contracts/checkout';
import { AlertCircle, Loader2, Lock } from 'lucide-react';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { usePayCheckout } from '../api/pay-checkout';
import { CardFields, CheckboxField } from './card-fields';

const EMPTY: CardPaymentValues = { cardNumber: '', expiry: '', cvc: '', name: '', saveCard: false };

/**
 * The card form of the built-in checkout. The same schema validates it here (inline, on leaving a
 * field) and on the server. Beside the card fields, the "Save this card ..." box (off by default; its
 * consent shows under it once ticked) asks to keep the card for autopay. A decline shows the bank's
 * message above the button; success goes to the success page (replacing this one, so Back does not
 * return to a paid checkout).
 */
export function CheckoutForm({
  token,
  amount,
  autopayConsent,
}: {
  token: string;
  amount: number;
  /** The consent the "Save this card ..." box stands for (the checkout's `autopayConsent`). */
  autopayConsent: string;
}) {
  const [, navigate] = useLocation();
  const pay = usePayCheckout(token);
  const cardRef = useRef<HTMLInputElement | null>(null);
  const form = useForm<CardPaymentValues, unknown, CardPayment>({
    resolver: zodResolver(cardPaymentSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const busy = pay.isPending || pay.isSuccess;
  const saveCard = form.watch('saveCard') === true;

  const onSubmit = form.handleSubmit((card) =>
    pay.mutate(card, {
      onSuccess: ({ redirectUrl }) => navigate(redirectUrl, { replace: true }),
      onError: (error) => {
        showServerFieldErrors(form, error);
        cardRef.current?.focus();
      },
    }),
  );

  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <CardFields
        register={form.register}
        errors={errors}
        cardNumber={form.watch('cardNumber') ?? ''}
        disabled={busy}
        cardRef={cardRef}
      />

      <CheckboxField label={SAVE_CARD_LABEL} {...form.register('saveCard')} disabled={busy}>
        {saveCard ? autopayConsent : null}
      </CheckboxField>

      {pay.isError && (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{errorMessage(pay.error, 'The payment could not be completed. Please try again.')}</span>
        </div>
      )}

      <Button type="submit" size="lg" className="mt-1 h-11 w-full text-base" disabled={busy}>
        {busy ? (
          <>
            <Loader2 className="animate-spin" aria-hidden /> Processing...
          </>
        ) : (
          <>
            <Lock aria-hidden /> Pay {formatMoney(amount)}
          </>
        )}
      </Button>
    </form>
  );
}
