import { zodResolver } from '@hookform/resolvers/zod';
import {
  AUTOPAY_MESSAGES,
  type PaymentSetupDone,
  type PaymentSetupPage,
  type SetupCard,
  type SetupCardValues,
  type StripeSetupValues,
  setupCardSchema,
  stripeSetupSchema,
} from '@shared/contracts/autopay';
import { formatCardNumber, TEST_CARDS } from '@shared/contracts/checkout';
import type { UseQueryResult } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, Clock, LinkIcon, Loader2, Lock } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import type { z } from 'zod';
import { Button, buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/feedback';
import { ApiError, errorMessage } from '@/lib/api-client';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useSavePaymentSetup, useStartStripeSetup } from '../api/save-payment-setup';
// The set-up page's card fields are the checkout's own (one card form, one set of rules and messages).
import { CardFields, CheckboxField } from './card-fields';
import { PublicMessage, PublicPaymentShell } from './public-payment-shell';

/** A link that can no longer be used (404 unknown, 410 expired or used): the server's words, and no form. */
type Gone = { status: 404 | 410; message: string };

const goneOf = (error: unknown): Gone | null => {
  if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 410)) return null;
  const fallback = error.status === 410 ? AUTOPAY_MESSAGES.setupLinkGone : AUTOPAY_MESSAGES.setupLinkInvalid;
  return { status: error.status, message: errorMessage(error, fallback) };
};

/**
 * The public set-up page (/setup/{token}, product.md section 18): who the method is for, the checkout's card
 * fields, the consent (required) and "Make default"; then "Payment method saved". A link that is unknown, expired
 * or used shows the server's message instead of the form.
 */
export function PaymentSetupScreen({
  token,
  query,
  returnedFromStripe = false,
}: {
  token: string;
  query: UseQueryResult<PaymentSetupPage>;
  /** Back from Stripe's page (`?saved=stripe`): the method is saved when Stripe's webhook arrives. */
  returnedFromStripe?: boolean;
}) {
  const [done, setDone] = useState<PaymentSetupDone | null>(null);
  const [goneOnSave, setGoneOnSave] = useState<Gone | null>(null);

  if (returnedFromStripe) {
    // The link is spent once the method is recorded: the page may already answer 410, which is the good news here.
    return (
      <PublicPaymentShell businessName={query.data?.businessName}>
        <PublicMessage icon={<CheckCircle2 aria-hidden />} title="Your payment method is being saved" tone="success">
          <p>Stripe has your details. The method appears on your payment methods within a minute.</p>
          {query.data?.returnPath && (
            <Link href={query.data.returnPath} className={buttonVariants({ className: 'mt-5' })}>
              Back to payment methods
            </Link>
          )}
        </PublicMessage>
      </PublicPaymentShell>
    );
  }

  if (query.isPending) {
    return (
      <PublicPaymentShell loading>
        <div className="grid gap-4" aria-busy="true">
          <span className="sr-only" role="status">
            Loading
          </span>
          <Skeleton className="h-8 w-72" />
          <Skeleton className="h-96 rounded-2xl" />
        </div>
      </PublicPaymentShell>
    );
  }
  const gone = goneOnSave ?? (query.isError ? goneOf(query.error) : null);
  if (gone) {
    return (
      <PublicPaymentShell businessName={query.data?.businessName}>
        <PublicMessage
          icon={gone.status === 410 ? <Clock aria-hidden /> : <LinkIcon aria-hidden />}
          title={gone.message}
          tone="danger"
        />
      </PublicPaymentShell>
    );
  }
  if (query.isError) {
    return (
      <PublicPaymentShell>
        <PublicMessage icon={<LinkIcon aria-hidden />} title="This page could not be loaded">
          {errorMessage(query.error, 'Please try again in a moment.')}
        </PublicMessage>
      </PublicPaymentShell>
    );
  }
  const page = query.data;
  return (
    <PublicPaymentShell businessName={page.businessName}>
      {done ? (
        <SetupSaved done={done} returnPath={page.returnPath} />
      ) : (
        <section aria-labelledby="setup-title" className="rounded-2xl border bg-white p-5 shadow-sm sm:p-6">
          <p className="text-sm font-medium text-slate-500">{page.businessName}</p>
          <h1 id="setup-title" className="mt-1 text-xl font-semibold text-slate-900">
            Save a payment method for {page.customerName}
          </h1>
          <p className="mt-1 mb-5 text-sm text-muted-foreground">
            Your invoices are then paid automatically when they are due. You can turn this off at any time.
          </p>
          {page.provider === 'stripe' ? (
            <StripeSetupForm token={token} page={page} onGone={setGoneOnSave} />
          ) : (
            <SetupCardForm token={token} page={page} onSaved={setDone} onGone={setGoneOnSave} />
          )}
          {page.provider === 'builtin' && (
            <div className="mt-5 rounded-lg bg-slate-50 p-3 text-xs text-slate-600">
              <p className="font-medium text-slate-700">Test cards</p>
              <p className="mt-1">
                <span className="font-mono">{formatCardNumber(TEST_CARDS.visa)}</span> saves and pays;{' '}
                <span className="font-mono">{formatCardNumber(TEST_CARDS.declinesOffSession)}</span> saves, then its
                charges are declined. Use any future expiry date and any 3-digit CVC. No real card is ever charged here.
              </p>
            </div>
          )}
        </section>
      )}
    </PublicPaymentShell>
  );
}

/** "Payment method saved", with the method, and the way back to the portal's page when the client came from it. */
export function SetupSaved({ done, returnPath }: { done: PaymentSetupDone; returnPath: string | null }) {
  return (
    <PublicMessage icon={<CheckCircle2 aria-hidden />} title="Payment method saved" tone="success">
      <p>
        <span className="font-medium text-slate-900">{done.method.label}</span> is saved
        {done.autopayEnabled ? ': your invoices will be charged to it automatically when they are due.' : '.'}
      </p>
      {returnPath && (
        <Link href={returnPath} className={buttonVariants({ className: 'mt-5' })}>
          Back to payment methods
        </Link>
      )}
    </PublicMessage>
  );
}

/** The form starts empty, with "Make default" ticked and the consent not given. */
export const SETUP_FORM_DEFAULTS = {
  cardNumber: '',
  expiry: '',
  cvc: '',
  name: '',
  makeDefault: true,
} satisfies Partial<SetupCardValues>;

export function SetupCardForm({
  token,
  page,
  onSaved,
  onGone,
}: {
  token: string;
  page: PaymentSetupPage;
  onSaved: (done: PaymentSetupDone) => void;
  onGone: (gone: Gone) => void;
}) {
  const save = useSavePaymentSetup(token);
  const cardRef = useRef<HTMLInputElement | null>(null);
  const form = useForm<SetupCardValues, unknown, SetupCard>({
    resolver: zodResolver(setupCardSchema),
    // The consent box starts unticked: it has no value until the customer ticks it.
    defaultValues: SETUP_FORM_DEFAULTS as SetupCardValues,
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const busy = save.isPending || save.isSuccess;
  // Without a method on file the new one becomes the default anyway: the box is not shown (and stays ticked).
  const offerDefault = page.methods.length > 0;

  const onSubmit = form.handleSubmit((card) =>
    save.mutate(card, {
      onSuccess: onSaved,
      onError: (error) => {
        const gone = goneOf(error);
        if (gone?.status === 410) {
          onGone(gone);
          return;
        }
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

      <CheckboxField
        label={page.consentText}
        error={errors.consent?.message}
        {...form.register('consent')}
        disabled={busy}
      />

      {offerDefault && (
        <CheckboxField label="Make default" {...form.register('makeDefault')} disabled={busy}>
          Autopay charges your default payment method.
        </CheckboxField>
      )}

      {save.isError && (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{errorMessage(save.error, 'The payment method could not be saved. Please try again.')}</span>
        </div>
      )}

      <Button type="submit" size="lg" className="mt-1 h-11 w-full text-base" disabled={busy}>
        {busy ? (
          <>
            <Loader2 className="animate-spin" aria-hidden /> Saving...
          </>
        ) : (
          <>
            <Lock aria-hidden /> Save payment method
          </>
        )}
      </Button>
    </form>
  );
}

/**
 * With Stripe configured: no card fields here. The customer agrees (the consent, required) and chooses "Make
 * default" on this page, then enters the card or bank account on Stripe's own page.
 */
export function StripeSetupForm({
  token,
  page,
  onGone,
}: {
  token: string;
  page: PaymentSetupPage;
  onGone: (gone: Gone) => void;
}) {
  const start = useStartStripeSetup(token);
  const form = useForm<StripeSetupValues, unknown, z.output<typeof stripeSetupSchema>>({
    resolver: zodResolver(stripeSetupSchema),
    defaultValues: { makeDefault: true } as StripeSetupValues,
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const busy = start.isPending || start.isSuccess;
  const offerDefault = page.methods.length > 0;
  const onSubmit = form.handleSubmit((body) =>
    start.mutate(body, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => {
        const gone = goneOf(error);
        if (gone?.status === 410) onGone(gone);
      },
    }),
  );
  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <CheckboxField
        label={page.consentText}
        error={errors.consent?.message}
        {...form.register('consent')}
        disabled={busy}
      />
      {offerDefault && (
        <CheckboxField label="Make default" {...form.register('makeDefault')} disabled={busy}>
          Autopay charges your default payment method.
        </CheckboxField>
      )}
      {start.isError && (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{errorMessage(start.error, 'Stripe could not be reached. Please try again in a moment.')}</span>
        </div>
      )}
      <Button type="submit" size="lg" className="mt-1 h-11 w-full text-base" disabled={busy}>
        {busy ? (
          <>
            <Loader2 className="animate-spin" aria-hidden /> Opening Stripe...
          </>
        ) : (
          <>
            <Lock aria-hidden /> Continue to Stripe
          </>
        )}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        You enter your card or bank account on Stripe's secure page.
      </p>
    </form>
  );
}
