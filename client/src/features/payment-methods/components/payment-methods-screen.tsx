import { AUTOPAY_MESSAGES, type PaymentMethods, type PaymentMethodView } from '@shared/contracts/autopay';
import { Building2, CreditCard, Loader2, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { Switch } from '@/components/ui/switch';
import { formatDate } from '@/lib/format';
import { usePaymentMethods } from '../api/get-payment-methods';
import { useMakeDefaultPaymentMethod } from '../api/make-default-payment-method';
import { useRemovePaymentMethod } from '../api/remove-payment-method';
import { useSetAutopay } from '../api/set-autopay';
import { useStartPaymentSetup } from '../api/start-payment-setup';

/**
 * The portal's "Payment methods" (product.md section 18): the client's autopay switch and its methods on file,
 * each made the default or removed here; "Add a payment method" goes to the page where it is entered.
 */
export function PaymentMethodsScreen({ returnedFromStripe = false }: { returnedFromStripe?: boolean }) {
  // Back from Stripe's page: the method is recorded when Stripe's webhook arrives, so the list is read again
  // every 2 seconds for 20 seconds.
  const [waitingForStripe] = useState(() => (returnedFromStripe ? Date.now() + 20_000 : 0));
  const query = usePaymentMethods({ refetchEvery: returnedFromStripe ? 2_000 : undefined, until: waitingForStripe });
  const data = query.data;
  return (
    <>
      <PageHeader
        title="Payment methods"
        description="The cards and accounts your invoices can be charged to, and whether they are charged automatically."
        actions={data && data.methods.length > 0 ? <AddMethodButton /> : null}
      />
      {returnedFromStripe && (
        <p
          role="status"
          className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-sm text-emerald-800"
        >
          Stripe has your details: your new payment method appears here within a minute.
        </p>
      )}
      {query.isPending ? (
        <LoadingSkeleton />
      ) : !data ? (
        <ErrorState title="Error loading payment methods">Reload the page to try again.</ErrorState>
      ) : (
        <div className="grid gap-6">
          <AutopayCard data={data} />
          {data.methods.length === 0 ? (
            <EmptyState icon={<CreditCard aria-hidden />} title="No payment method on file yet.">
              <p>Save a card to have your invoices paid automatically on their due date.</p>
              <div className="mt-4">
                <AddMethodButton />
              </div>
            </EmptyState>
          ) : (
            <MethodList data={data} />
          )}
        </div>
      )}
    </>
  );
}

function LoadingSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true" data-testid="payment-methods-loading">
      <span className="sr-only" role="status">
        Loading payment methods
      </span>
      <Skeleton className="h-24 rounded-xl" />
      <Skeleton className="h-48 rounded-xl" />
    </div>
  );
}

function AddMethodButton() {
  const start = useStartPaymentSetup();
  // Once the address is there the browser is leaving: the button stays busy until it has.
  const busy = start.isPending || start.isSuccess;
  return (
    <Button onClick={() => start.mutate()} disabled={busy}>
      {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Plus aria-hidden />}
      {busy ? 'Opening...' : 'Add a payment method'}
    </Button>
  );
}

/** "On: ..." / "Off: ..." under the switch, in the words of the settings' charge day. */
export function autopayExplanation({ autopay }: PaymentMethods): string {
  if (!autopay.enabled) return 'Off: you pay each invoice yourself.';
  const method = autopay.defaultMethod?.label ?? 'your default payment method';
  const when = autopay.chargeOn === 'issue_date' ? 'on the day they are issued' : 'on their due date';
  return `On: open invoices are charged to ${method} ${when}.`;
}

function AutopayCard({ data }: { data: PaymentMethods }) {
  const setAutopay = useSetAutopay();
  const switchId = useId();
  const { autopay } = data;
  // Turning it off is always possible; turning it on needs an active default method.
  const disabled = (!autopay.enabled && !autopay.canEnable) || setAutopay.isPending;
  const blocked = !autopay.enabled && !autopay.canEnable;
  const hint =
    data.methods.length === 0
      ? AUTOPAY_MESSAGES.noActiveMethod
      : 'Make an active payment method your default before turning autopay on.';
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-4 pt-6">
        <div className="grid min-w-0 gap-1">
          <label htmlFor={switchId} className="font-medium text-slate-900">
            Autopay
          </label>
          <p id={`${switchId}-explanation`} className="text-sm text-muted-foreground">
            {autopayExplanation(data)}
          </p>
          {blocked && (
            <p id={`${switchId}-hint`} className="text-sm text-amber-800" data-testid="autopay-hint">
              {hint}
            </p>
          )}
        </div>
        <Switch
          id={switchId}
          checked={autopay.enabled}
          disabled={disabled}
          aria-describedby={blocked ? `${switchId}-explanation ${switchId}-hint` : `${switchId}-explanation`}
          onCheckedChange={(enabled) => setAutopay.mutate(enabled)}
          className="mt-1"
        />
      </CardContent>
    </Card>
  );
}

const STATUS_BADGES: Record<PaymentMethodView['status'], string | null> = {
  active: null,
  expired: 'Expired',
  failed: 'Failed',
};

/** "Expires 04/2028"; null for a method without an expiry (a bank account). */
export function expiryLabel(method: Pick<PaymentMethodView, 'expMonth' | 'expYear'>): string | null {
  if (method.expMonth === null || method.expYear === null) return null;
  return `Expires ${String(method.expMonth).padStart(2, '0')}/${method.expYear}`;
}

/** The removal's confirmation: "Remove Visa •••• 4242?" */
export const removeTitle = (method: Pick<PaymentMethodView, 'label'>) => `Remove ${method.label}?`;

function MethodList({ data }: { data: PaymentMethods }) {
  const makeDefault = useMakeDefaultPaymentMethod();
  const remove = useRemovePaymentMethod();
  const [removing, setRemoving] = useState<PaymentMethodView | null>(null);
  const lastActiveDefault =
    removing?.isDefault && data.autopay.enabled && data.methods.filter((m) => m.status === 'active').length === 1;
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Methods on file</CardTitle>
        <CardDescription>Autopay charges the default method.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid divide-y rounded-lg border">
          {data.methods.map((method) => {
            const status = STATUS_BADGES[method.status];
            const expiry = expiryLabel(method);
            const Icon = method.kind === 'us_bank_account' ? Building2 : CreditCard;
            return (
              <li
                key={method.id}
                data-testid="payment-method"
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="flex min-w-0 items-start gap-3">
                  <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
                  <div className="grid min-w-0 gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium text-slate-900">{method.label}</span>
                      {method.isDefault && <Badge tone="blue">Default</Badge>}
                      {status && <Badge tone="red">{status}</Badge>}
                    </div>
                    <p className="text-sm text-muted-foreground">
                      {[expiry, `Consent given ${formatDate(method.consent.at)}`].filter(Boolean).join(' · ')}
                    </p>
                  </div>
                </div>
                <div className="flex shrink-0 flex-wrap gap-2">
                  {!method.isDefault && (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={makeDefault.isPending}
                      aria-label={`Make ${method.label} the default`}
                      onClick={() => makeDefault.mutate(method.id)}
                    >
                      Make default
                    </Button>
                  )}
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-destructive hover:text-destructive"
                    aria-label={`Remove ${method.label}`}
                    onClick={() => setRemoving(method)}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={removing ? removeTitle(removing) : ''}
        description={
          lastActiveDefault
            ? 'It is the method autopay charges: autopay turns off, and you pay each invoice yourself.'
            : 'Your invoices will no longer be charged to it.'
        }
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, { onSuccess: () => setRemoving(null) });
        }}
      />
    </Card>
  );
}
