import {
  CARD_BRAND_LABELS,
  type CardPaymentValues,
  cardBrand,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
} from '@shared/contracts/checkout';
import { CreditCard } from 'lucide-react';
import { type RefObject, useId } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/**
 * The card fields of a card form (the checkout, the set-up page): number with its brand, expiry, CVC and the name
 * on the card, each formatted as it is typed and validated by the form's schema (shared/contracts/checkout.ts
 * cardPaymentSchema, or a schema extending it). `cardRef` gets the number's input, which a failure focuses.
 */
export function CardFields({
  register,
  errors,
  cardNumber,
  disabled,
  cardRef,
}: {
  register: UseFormRegister<CardPaymentValues>;
  errors: FieldErrors<CardPaymentValues>;
  /** The number as typed (form.watch('cardNumber')): its brand shows in the field and sets the CVC's length. */
  cardNumber: string;
  disabled: boolean;
  cardRef?: RefObject<HTMLInputElement | null>;
}) {
  const cardId = useId();
  const brand = cardBrand(digitsOnly(cardNumber));
  const cardField = register('cardNumber');
  const expiryField = register('expiry');
  const cvcField = register('cvc');

  return (
    <>
      <div className="grid gap-1.5">
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={cardId}>Card number</Label>
          {/* The brand beside the label, not in the field: "American Express" would cover the number on a phone. */}
          {brand !== 'unknown' && (
            <span aria-hidden className="text-xs text-muted-foreground" data-testid="card-brand">
              {CARD_BRAND_LABELS[brand]}
            </span>
          )}
        </div>
        <div className="relative">
          <Input
            {...cardField}
            id={cardId}
            ref={(element) => {
              cardField.ref(element);
              if (cardRef) cardRef.current = element;
            }}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            // Room on the right for the card icon (size-4 at right-3) and a gap before it.
            className="h-10 pr-10 font-mono tracking-wide"
            aria-invalid={errors.cardNumber ? true : undefined}
            aria-describedby={errors.cardNumber ? `${cardId}-error` : undefined}
            onChange={(event) => {
              event.target.value = formatCardNumber(event.target.value);
              void cardField.onChange(event);
            }}
            disabled={disabled}
          />
          <CreditCard
            aria-hidden
            className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
        </div>
        {errors.cardNumber && (
          <p id={`${cardId}-error`} role="alert" className="text-sm font-medium text-destructive">
            {errors.cardNumber.message}
          </p>
        )}
      </div>

      {/*
        Expiry and CVC side by side, their labels, inputs and errors on three shared rows (a subgrid): the inputs
        stay level when a label wraps (a narrow phone, a larger text) or when only one of them has an error.
        The expiry gets the wider column, so its label fits on one line at 360 px.
      */}
      <div className="grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] grid-rows-[auto_auto_auto] gap-x-3">
        <FormField
          label="Expiration (MM / YY)"
          error={errors.expiry?.message}
          className="row-span-3 grid-rows-subgrid [&>label]:self-end"
        >
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
            disabled={disabled}
          />
        </FormField>
        <FormField label="CVC" error={errors.cvc?.message} className="row-span-3 grid-rows-subgrid [&>label]:self-end">
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
            disabled={disabled}
          />
        </FormField>
      </div>

      <FormField label="Name on card" error={errors.name?.message}>
        <Input {...register('name')} autoComplete="cc-name" className="h-10" disabled={disabled} />
      </FormField>
    </>
  );
}

/**
 * A checkbox with its label beside it, an optional line under it, and its error (role alert) below: the
 * "Save this card ..." box of the checkout, the set-up page's consent and "Make default".
 */
export function CheckboxField({
  label,
  error,
  children,
  ...input
}: Omit<React.ComponentProps<'input'>, 'type' | 'children'> & {
  label: string;
  error?: string;
  /** Shown under the label (the consent text of the checkout's box, when ticked). */
  children?: React.ReactNode;
}) {
  const id = useId();
  const describedBy = [children ? `${id}-note` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="grid gap-1.5">
      <div className="flex items-start gap-2">
        <input
          {...input}
          id={id}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        <div className="grid gap-1">
          <label htmlFor={id} className="text-sm font-medium text-slate-800">
            {label}
          </label>
          {children && (
            <p id={`${id}-note`} className="text-xs text-muted-foreground">
              {children}
            </p>
          )}
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
