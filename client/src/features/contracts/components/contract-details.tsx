import type { Contract } from '@shared/contracts/contract-responses';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmailText } from '@/components/ui/email-text';
import { formatDate, formatMoney, paymentModeLabel, termLabel } from '../lib/format';
import { PackageDetails } from './package-details';

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
                <Item label="Name" value={customer.name} />
                <Item
                  label="Email"
                  value={
                    <a className="text-primary hover:underline" href={`mailto:${customer.email}`}>
                      <EmailText email={customer.email} />
                    </a>
                  }
                />
                <Item label="Company" value={customer.company || '—'} />
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
              <Item label="Start Date" value={formatDate(contract.startDate)} />
              <Item label="Term" value={termLabel(contract.termMonths)} />
              <Item
                label="Auto-stop Date"
                value={contract.autoStopDate ? formatDate(contract.autoStopDate) : 'None (month to month)'}
              />
              <Item label="Payment Mode" value={paymentModeLabel(contract.paymentMode)} />
              {contract.salesRepName && <Item label="Sales Rep" value={contract.salesRepName} />}
              {contract.status === 'canceled' && contract.cancelReason && (
                <Item label="Cancel Reason" value={contract.cancelReason} />
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
            <div className="overflow-x-auto rounded-lg border">
              <table className="w-full text-sm">
                <caption className="sr-only">Line items</caption>
                <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Product
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Quantity
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Unit Price
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Discount
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Line Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {contract.lineItems.map((line) => (
                    <tr key={line.id} className="border-t">
                      <td className="px-3 py-2">
                        <span className="font-medium text-slate-900">{line.product.name}</span>
                        {line.product.seasonalPrice !== null && (
                          <span className="block text-xs text-muted-foreground">
                            {formatMoney(line.product.seasonalPrice)} in season (Oct–Dec)
                          </span>
                        )}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{line.quantity}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatMoney(line.unitPrice)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">
                        {line.discount > 0 ? `-${formatMoney(line.discount)}` : formatMoney(0)}
                      </td>
                      <td className="px-3 py-2 text-right font-medium tabular-nums">{formatMoney(line.lineTotal)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr className="border-t bg-muted/30">
                    <th scope="row" colSpan={4} className="px-3 py-2 text-right font-medium">
                      Line Items Total
                    </th>
                    <td className="px-3 py-2 text-right font-semibold tabular-nums">
                      {formatMoney(contract.lineItemsTotal)}
                    </td>
                  </tr>
                </tfoot>
              </table>
            </div>
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

function Item({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_minmax(0,1fr)] gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words text-slate-900">{value}</dd>
    </div>
  );
}
