import type { ClientContractDetail, ClientContractLine } from '@shared/contracts/client-portal';
import { AD_TYPE_LABELS, type AdType, PRICE_METRIC_LABELS } from '@shared/contracts/product-vocabulary';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type Column, DataTable } from '@/components/ui/data-table';
import { formatDate, formatMoney } from '@/lib/format';

const flightText = (line: ClientContractLine) =>
  line.flightEnd
    ? `${formatDate(line.flightStart)} – ${formatDate(line.flightEnd)}`
    : `From ${formatDate(line.flightStart)}`;

const COLUMNS: Column<ClientContractLine>[] = [
  {
    id: 'item',
    header: 'Item',
    rowHeader: true,
    cell: (line) => (
      <>
        {line.name}
        <span className="block text-xs font-normal text-muted-foreground">
          {AD_TYPE_LABELS[line.adType as AdType] ?? line.adType} · {PRICE_METRIC_LABELS[line.priceMetric]}
        </span>
      </>
    ),
  },
  { id: 'flight', header: 'Runs', cellClassName: 'whitespace-nowrap', cell: flightText },
  { id: 'quantity', header: 'Qty', align: 'right', cell: (line) => line.quantity },
  {
    id: 'price',
    header: 'Unit price',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (line) => (
      <>
        {formatMoney(line.unitPrice)}
        {line.discount > 0 && (
          <span className="block text-xs text-muted-foreground">less {formatMoney(line.discount)}</span>
        )}
      </>
    ),
  },
  {
    id: 'season',
    header: 'In season (Oct–Dec)',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (line) =>
      line.seasonalPrice === null ? (
        <span className="text-muted-foreground">Same price</span>
      ) : (
        <>
          {formatMoney(line.seasonalPrice)}
          <span className="block text-xs text-muted-foreground">{formatMoney(line.seasonalLineTotal)} total</span>
        </>
      ),
  },
  {
    id: 'total',
    header: 'Line total',
    align: 'right',
    cellClassName: 'whitespace-nowrap font-medium',
    cell: (line) => formatMoney(line.lineTotal),
  },
];

/**
 * What the client bought: each line as its invoices name it, when it runs, its quantity and prices (the in-season
 * price billed for periods starting October to December), the package and the monthly amounts from the billing
 * engine.
 */
export function ClientContractLines({ contract }: { contract: ClientContractDetail }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>What you bought</CardTitle>
        <CardDescription>
          {formatMoney(contract.monthlyAmount)} a month
          {contract.seasonalMonthlyAmount !== contract.monthlyAmount &&
            `, ${formatMoney(contract.seasonalMonthlyAmount)} a month in season (October to December)`}
          {contract.oneTimeAmount > 0 && `; ${formatMoney(contract.oneTimeAmount)} charged once`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {contract.lineItems.length > 0 && (
          <DataTable
            caption="Contract lines"
            columns={COLUMNS}
            rows={contract.lineItems}
            rowKey={(line) => line.id}
            rowProps={() => ({ 'data-testid': 'client-contract-line' })}
            frame="inset"
            density="compact"
            phone="cards"
          />
        )}
        {(contract.package || contract.oneTimeCharges.length > 0) && (
          <dl className="grid gap-2 text-sm">
            {contract.package && (
              <div className="flex justify-between gap-4">
                <dt>Package: {contract.package.name}</dt>
                <dd className="tabular-nums">{formatMoney(contract.package.price)} a month</dd>
              </div>
            )}
            {contract.oneTimeCharges.map((charge) => (
              <div
                key={`${charge.kind}-${charge.description}-${charge.billedOn}`}
                className="flex justify-between gap-4"
              >
                <dt>
                  {charge.description}
                  <span className="block text-xs text-muted-foreground">
                    Once, on the invoice of {formatDate(charge.billedOn)}
                    {charge.inSeason && ' (in-season price)'}
                  </span>
                </dt>
                <dd className="tabular-nums">{formatMoney(charge.amount)}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
