import type { Contract } from '@shared/contracts/contract-responses';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { EmailText } from '@/components/ui/email-text';
import { Fact } from '@/components/ui/fact';
import { formatDate, formatMoney, paymentModeLabel, termLabel } from '../lib/format';
import { PackageDetails } from './package-details';

type LineItem = Contract['lineItems'][number];

/** The contract's lines in their order, with the total under them. */
const LINE_COLUMNS: Column<LineItem>[] = [
  {
    id: 'product',
    header: 'Product',
    cell: (line) => (
      <>
        <span className="font-medium text-slate-900">{line.product.name}</span>
        {line.product.seasonalPrice !== null && (
          <span className="block text-xs text-muted-foreground">
            {formatMoney(line.product.seasonalPrice)} in season (Oct–Dec)
          </span>
        )}
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

      {contract.lineItems.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Line Items</CardTitle>
          </CardHeader>
          <CardContent>
            <DataTable
              caption="Line items"
              columns={LINE_COLUMNS}
              rows={contract.lineItems}
              rowKey={(line) => line.id}
              density="compact"
              total={{ label: 'Line Items Total', value: formatMoney(contract.lineItemsTotal) }}
            />
          </CardContent>
        </Card>
      )}

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
