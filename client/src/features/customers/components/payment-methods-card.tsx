import type { PaymentMethods, PaymentMethodView } from '@shared/contracts/autopay';
import { can } from '@shared/permissions';
import { Ban, CreditCard, MailPlus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { formatDate } from '@/lib/format';
import { useCustomerPaymentMethods, useSendPaymentSetupLink } from '../api/customer-payment-methods';

// The confirmation loads the first time it opens (docs/decisions/017-performance.md).
const AutopayOffDialog = lazyWhen(
  () => import('./payment-methods-autopay-off-dialog').then((module) => module.AutopayOffDialog),
  (props) => props.open,
);

const STATUS_BADGES: Record<PaymentMethodView['status'], { label: string; tone: 'green' | 'yellow' | 'red' }> = {
  active: { label: 'Active', tone: 'green' },
  expired: { label: 'Expired', tone: 'yellow' },
  failed: { label: 'Failed', tone: 'red' },
};

/** "12/2030"; a bank account has no expiry. */
export const expiryLabel = (method: Pick<PaymentMethodView, 'expMonth' | 'expYear'>) =>
  method.expMonth === null || method.expYear === null
    ? '—'
    : `${String(method.expMonth).padStart(2, '0')}/${method.expYear}`;

/** Autopay on but nothing to charge: after a hard decline, or once the default method expired or was removed. */
export const AUTOPAY_WITHOUT_METHOD =
  'Autopay on, but no active payment method to charge: send the customer a set-up link.';

/**
 * "Autopay on: invoices are charged to Visa •••• 4242 on their due date", the line of autopay on without an
 * active method to charge (AUTOPAY_WITHOUT_METHOD), or "Autopay off".
 */
export function autopayLine(autopay: PaymentMethods['autopay']): string {
  if (!autopay.enabled) return 'Autopay off';
  if (!autopay.defaultMethod) return AUTOPAY_WITHOUT_METHOD;
  const when = autopay.chargeOn === 'issue_date' ? 'their issue date' : 'their due date';
  return `Autopay on: invoices are charged to ${autopay.defaultMethod.label} on ${when}`;
}

/** The line's colour: green while autopay charges a method, amber when it has none to charge, neutral off. */
export function autopayLineClass(autopay: PaymentMethods['autopay']): string {
  if (!autopay.enabled) return 'text-sm text-muted-foreground';
  return autopay.defaultMethod ? 'text-sm font-medium text-green-800' : 'text-sm font-medium text-amber-800';
}

/** Who agreed, when, and a disclosure with the exact text, the address and the browser it came from. */
function ConsentCell({ method }: { method: PaymentMethodView }) {
  const { consent } = method;
  return (
    <div className="grid gap-1 text-sm">
      <span>
        {formatDate(consent.at)} · {consent.name}
        {consent.email && <span className="block break-all text-xs text-muted-foreground">{consent.email}</span>}
      </span>
      <details className="text-xs" data-testid="consent-record">
        <summary className="cursor-pointer rounded-sm font-medium text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          Consent record
        </summary>
        <dl className="mt-1 grid gap-1 rounded-md bg-slate-50 p-2 text-slate-700">
          <div>
            <dt className="font-medium text-muted-foreground">Text agreed</dt>
            <dd className="whitespace-pre-wrap">{consent.text}</dd>
          </div>
          <div>
            <dt className="font-medium text-muted-foreground">IP address</dt>
            <dd className="break-all">{consent.ip ?? 'Not recorded'}</dd>
          </div>
          <div>
            <dt className="font-medium text-muted-foreground">User agent</dt>
            <dd className="break-all">{consent.userAgent ?? 'Not recorded'}</dd>
          </div>
        </dl>
      </details>
    </div>
  );
}

const COLUMNS: Column<PaymentMethodView>[] = [
  {
    id: 'method',
    header: 'Method',
    rowHeader: true,
    role: 'identity',
    cellClassName: 'whitespace-nowrap',
    cell: (method) => (
      <>
        {method.label}
        {method.isDefault && (
          <Badge tone="blue" className="ml-2">
            Default
          </Badge>
        )}
      </>
    ),
  },
  { id: 'expires', header: 'Expires', cellClassName: 'whitespace-nowrap tabular-nums', cell: expiryLabel },
  {
    id: 'status',
    header: 'Status',
    role: 'status',
    cell: (method) => {
      const badge = STATUS_BADGES[method.status];
      return <Badge tone={badge.tone}>{badge.label}</Badge>;
    },
  },
  { id: 'consent', header: 'Consent', cell: (method) => <ConsentCell method={method} /> },
];

/**
 * The customer page's "Payment methods and autopay" (payment-method:manage, product.md section 18): whether
 * autopay is on and to which method, the methods on file with their consent, the set-up link e-mailed to the
 * customer, and autopay turned off after a confirmation. Staff never enter a card: the customer does, on the
 * set-up page or in the portal.
 */
export function PaymentMethodsCard({ customerId, customerName }: { customerId: string; customerName: string }) {
  const { user } = useCurrentUser();
  const allowed = can(user, 'payment-method:manage');
  const { data, isLoading, error } = useCustomerPaymentMethods(customerId, { enabled: allowed });
  const sendLink = useSendPaymentSetupLink();
  const [confirming, setConfirming] = useState(false);
  if (!allowed) return null;

  const on = Boolean(data?.autopay.enabled);
  return (
    <Card data-testid="payment-methods-card">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <CreditCard className="size-4 text-muted-foreground" aria-hidden /> Payment methods and autopay
          </CardTitle>
          <CardDescription>
            The customer saves its own methods: send it the set-up link. Only the customer can turn autopay on.
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={sendLink.isPending}
            onClick={() => sendLink.mutate(customerId)}
            aria-label={`E-mail ${customerName} a link to save a payment method`}
          >
            <MailPlus aria-hidden /> {sendLink.isPending ? 'Sending...' : 'Send set-up link'}
          </Button>
          {on && (
            <Button
              variant="outline"
              size="sm"
              className="text-destructive hover:bg-red-50 hover:text-destructive"
              onClick={() => setConfirming(true)}
            >
              <Ban aria-hidden /> Turn autopay off
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isLoading && (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading payment methods</span>
            <Skeleton className="h-5 w-72 max-w-full" />
            <Skeleton className="h-24" />
          </div>
        )}
        {error && <ErrorState title="Could not load the payment methods">Reload the page to try again.</ErrorState>}
        {data && (
          <>
            <p className={autopayLineClass(data.autopay)} data-testid="autopay-state">
              {autopayLine(data.autopay)}
            </p>
            <DataTable
              caption={`Payment methods of ${customerName}`}
              columns={COLUMNS}
              rows={data.methods}
              rowKey={(method) => method.id}
              rowProps={() => ({ 'data-testid': 'payment-method-row' })}
              density="compact"
              frame="inset"
              sortable={false}
              phone="cards"
              empty={<p className="py-4 text-center text-sm text-muted-foreground">No payment method on file.</p>}
            />
          </>
        )}
      </CardContent>
      <AutopayOffDialog
        open={confirming}
        onOpenChange={setConfirming}
        customerId={customerId}
        customerName={customerName}
      />
    </Card>
  );
}
