import { zodResolver } from '@hookform/resolvers/zod';
import {
  CARD_BRAND_LABELS,
  type CardPayment,
  type CardPaymentValues,
  cardBrand,
  cardPaymentSchema,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
} from '@shared/contracts/checkout';
import { AlertCircle, CreditCard, Loader2, Lock } from 'lucide-react';
import { useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { usePayCheckout } from '../api/pay-checkout';

const EMPTY: CardPaymentValues = { cardNumber: '', expiry: '', cvc: '', name: '' };

/**
 * The card form of the built-in checkout. The same schema validates it here (inline, on leaving a
 * field) and on the server. A decline shows the bank's message above the button; success goes to the
 * success page (replacing this one, so Back does not return to a paid checkout).
 */
export function CheckoutForm({ token, amount }: { token: string; amount: number }) {
  const [, navigate] = useLocation();
  const pay = usePayCheckout(token);
  const cardRef = useRef<HTMLInputElement | null>(null);
  const cardId = useId();
  const form = useForm<CardPaymentValues, unknown, CardPayment>({
    resolver: zodResolver(cardPaymentSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const brand = cardBrand(digitsOnly(form.watch('cardNumber') ?? ''));
  const busy = pay.isPending || pay.isSuccess;

  const onSubmit = form.handleSubmit((card) =>
    pay.mutate(card, {
      onSuccess: ({ redirectUrl }) => navigate(redirectUrl, { replace: true }),
      onError: (error) => {
        showServerFieldErrors(form, error);
        cardRef.current?.focus();
      },
    }),
  );

  const cardField = form.register('cardNumber');
  const expiryField = form.register('expiry');
  const cvcField = form.register('cvc');

  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <div className="grid gap-1.5">
        <Label htmlFor={cardId}>Card number</Label>
        <div className="relative">
          <Input
            {...cardField}
            id={cardId}
            ref={(element) => {
              cardField.ref(element);
              cardRef.current = element;
            }}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            className="h-10 pr-28 font-mono tracking-wide"
            aria-invalid={errors.cardNumber ? true : undefined}
            aria-describedby={errors.cardNumber ? `${cardId}-error` : undefined}
            onChange={(event) => {
              event.target.value = formatCardNumber(event.target.value);
              void cardField.onChange(event);
            }}
            disabled={busy}
          />
          <span
            aria-hidden
            className="pointer-events-none absolute inset-y-0 right-3 flex items-center gap-1 text-xs text-muted-foreground"
          >
            <CreditCard className="size-4" />
            {brand !== 'unknown' && <span>{CARD_BRAND_LABELS[brand]}</span>}
          </span>
        </div>
        {errors.cardNumber && (
          <p id={`${cardId}-error`} role="alert" className="text-sm font-medium text-destructive">
            {errors.cardNumber.message}
          </p>
        )}
      </div>

      <div className="grid grid-cols-2 gap-3">
        <FormField label="Expiration (MM / YY)" error={errors.expiry?.message}>
          <Input
            {...expiryField}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            className="h-10 font-mono"
            onChange={(event) => {
              event.target.value = formatExpiry(event.target.value);
              void expiryField.onChange(event);
            }}
            disabled={busy}
          />
        </FormField>
        <FormField label="CVC" error={errors.cvc?.message}>
          <Input
            {...cvcField}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder={brand === 'amex' ? '1234' : '123'}
            maxLength={4}
            className="h-10 font-mono"
            onChange={(event) => {
              event.target.value = digitsOnly(event.target.value).slice(0, 4);
              void cvcField.onChange(event);
            }}
            disabled={busy}
          />
        </FormField>
      </div>

      <FormField label="Name on card" error={errors.name?.message}>
        <Input {...form.register('name')} autoComplete="cc-name" className="h-10" disabled={busy} />
      </FormField>

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
