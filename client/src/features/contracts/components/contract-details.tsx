import type { Contract } from '@shared/contracts/contract-responses';
import { UNDER_DELIVERY_REMEDY_LABELS } from '@shared/contracts/delivery-vocabulary';
import { PRICE_METRIC_LABELS } from '@shared/contracts/product-vocabulary';
import { Plus } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmailText } from '@/components/ui/email-text';
import { Fact } from '@/components/ui/fact';
import { todayIso } from '@/lib/format';
import { agencyTermsText, formatDate, formatMoney, paymentModeLabel, termLabel } from '../lib/format';
import { PackageDetails } from './package-details';

type LineItem = Contract['lineItems'][number];

const AddLineDialog = lazy(() => import('./amend-line-dialogs').then((m) => ({ default: m.AddLineDialog })));
const EndLineDialog = lazy(() => import('./amend-line-dialogs').then((m) => ({ default: m.EndLineDialog })));

/**
 * The contract's lines in their order, with the total under them. A running contract's line carries its
 * amendment action under the product (the table keeps five columns, so it fits beside the sidebar).
 */
function lineColumns(action?: (line: LineItem) => ReactNode): Column<LineItem>[] {
  return [
    {
      id: 'product',
      header: 'Product',
      className: 'min-w-44',
      cell: (line) => (
        <>
          <span className="font-medium text-slate-900">{line.product.name}</span>
          <span className="block text-xs text-muted-foreground">
            {line.priceMetric === 'flat' ? 'Flat Rate, billed once' : PRICE_METRIC_LABELS[line.priceMetric]}
            {line.priceMetric === 'cpm' && ' (thousands of impressions a month)'} · {flightText(line)}
          </span>
          {line.seasonalPrice !== null && (
            <span className="block text-xs text-muted-foreground">
              {formatMoney(line.seasonalPrice)} in season (Oct–Dec)
            </span>
          )}
          {action?.(line)}
        </>
      ),
    },
    { id: 'quantity', header: 'Quantity', align: 'right', cell: (line) => line.quantity },
    { id: 'unit-price', header: 'Unit Price', align: 'right', cell: (line) => formatMoney(line.unitPrice) },
    {
      id: 'discount',
      header: 'Discount',
      align: 'right',
      cell: (line) => (line.discount > 0 ? `-${formatMoney(line.discount)}` : formatMoney(0)),
    },
    {
      id: 'line-total',
      header: 'Line Total',
      align: 'right',
      cellClassName: 'font-medium',
      cell: (line) => formatMoney(line.lineTotal),
    },
  ];
}
const LINE_COLUMNS = lineColumns();

/** A line's flight in words: "Dec 1, 2026 – Dec 31, 2026", or "from Jan 1, 2026". */
function flightText(line: LineItem): string {
  return line.flightEnd
    ? `${formatDate(line.flightStart)} – ${formatDate(line.flightEnd)}`
    : `from ${formatDate(line.flightStart)}`;
}

/**
 * The lines as sold. On a running contract whose edit is locked, staff who may act on it add a line or end
 * one from today (the dialogs load when opened).
 */
function LineItemsCard({ contract }: { contract: Contract }) {
  const [adding, setAdding] = useState(false);
  const [ending, setEnding] = useState<LineItem | null>(null);
  const today = todayIso();
  // A line can be ended earlier while its last day is still ahead; one ending today has nothing left.
  const columns = contract.canAmend
    ? lineColumns((line) =>
        line.flightEnd === null || line.flightEnd > today ? (
          <Button
            variant="link"
            size="sm"
            className="block h-auto px-0 py-0.5 text-xs"
            aria-label={`End ${line.product.name}`}
            onClick={() => setEnding(line)}
          >
            End line
          </Button>
        ) : (
          <span className="block text-xs font-medium text-slate-700">
            {line.flightEnd === today ? 'Ends today' : 'Ended'}
          </span>
        ),
      )
    : LINE_COLUMNS;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle>Line Items</CardTitle>
          {contract.canAmend && (
            <CardDescription>
              {contract.startDate > todayIso()
                ? `Starts ${formatDate(contract.startDate)}: add a line or end one from that day.`
                : 'Running: add a line or end one from today.'}{' '}
              The next invoice settles the difference.
            </CardDescription>
          )}
        </div>
        {contract.canAmend && (
          <Button variant="outline" size="sm" onClick={() => setAdding(true)}>
            <Plus aria-hidden /> Add Line
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {contract.lineItems.length > 0 ? (
          <DataTable
            caption="Line items"
            columns={columns}
            rows={contract.lineItems}
            rowKey={(line) => line.id}
            density="compact"
            total={{ label: 'Line Items Total', value: formatMoney(contract.lineItemsTotal) }}
          />
        ) : (
          <p className="text-sm text-muted-foreground">No line items besides the package.</p>
        )}
      </CardContent>
      {(adding || ending) && (
        <Suspense fallback={null}>
          <AddLineDialog contract={contract} open={adding} onOpenChange={setAdding} />
          <EndLineDialog contract={contract} line={ending} onOpenChange={(open) => !open && setEnding(null)} />
        </Suspense>
      )}
    </Card>
  );
}

/** The detail page's information cards: customer, terms, package, line items and description. */
export function ContractDetails({ contract }: { contract: Contract }) {
  const customer = contract.customer;
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Customer</CardTitle>
          </CardHeader>
          <CardContent>
            {customer ? (
              <dl className="grid gap-2 text-sm">
                <Fact label="Name">{customer.name}</Fact>
                <Fact label="Email">
                  <a className="text-primary hover:underline" href={`mailto:${customer.email}`}>
                    <EmailText email={customer.email} />
                  </a>
                </Fact>
                <Fact label="Company">{customer.company || '—'}</Fact>
                {contract.billToCustomerId !== contract.customerId && (
                  <Fact label="Billed to">
                    <span className="font-medium">{contract.billToName ?? 'Agency'}</span>
                    {contract.agencyCommissionPercent !== null && contract.agencyBillingMode !== null && (
                      <span className="block text-xs text-muted-foreground">
                        {agencyTermsText(contract.agencyCommissionPercent, contract.agencyBillingMode)}
                      </span>
                    )}
                  </Fact>
                )}
              </dl>
            ) : (
              <p className="text-sm text-muted-foreground">Unknown Customer</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Terms</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-2 text-sm">
              <Fact label="Start Date">{formatDate(contract.startDate)}</Fact>
              <Fact label="Term">{termLabel(contract.termMonths)}</Fact>
              <Fact label="Auto-stop Date">
                {contract.autoStopDate ? formatDate(contract.autoStopDate) : 'None (month to month)'}
              </Fact>
              <Fact label="Payment Mode">{paymentModeLabel(contract.paymentMode)}</Fact>
              {contract.lineItems.some((line) => line.priceMetric === 'cpm') && (
                <Fact label="Under-delivery Remedy">
                  {UNDER_DELIVERY_REMEDY_LABELS[contract.underDeliveryRemedy]?.label ?? contract.underDeliveryRemedy}
                </Fact>
              )}
              {contract.salesRepName && <Fact label="Sales Rep">{contract.salesRepName}</Fact>}
              {contract.status === 'canceled' && contract.cancelReason && (
                <Fact label="Cancel Reason">{contract.cancelReason}</Fact>
              )}
            </dl>
          </CardContent>
        </Card>
      </div>

      {contract.package && (
        <Card>
          <CardHeader>
            <CardTitle>Package Details</CardTitle>
          </CardHeader>
          <CardContent>
            <PackageDetails pkg={contract.package} headingLevel="h4" />
          </CardContent>
        </Card>
      )}

      {(contract.lineItems.length > 0 || contract.canAmend) && <LineItemsCard contract={contract} />}

      <Card>
        <CardHeader>
          <CardTitle>Description</CardTitle>
        </CardHeader>
        <CardContent>
          {contract.description ? (
            <p className="whitespace-pre-wrap text-sm text-slate-700">{contract.description}</p>
          ) : (
            <p className="text-sm italic text-muted-foreground">No description</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
