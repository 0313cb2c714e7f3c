import { AD_TYPE_LABELS } from '@shared/contracts/product-vocabulary';
import type { Product } from '@shared/contracts/products';
import { CalendarDays, Layers, Pencil, Snowflake, Trash2, Warehouse } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { daysLabel, metricSuffix } from '../format';

/** One catalog product: ad type, price and its metric, seasonal price, run length and inventory. */
export function ProductCard({
  product,
  canManage,
  onEdit,
  onDelete,
}: {
  product: Product;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Card
      className={cn('flex min-w-0 flex-col', !product.isActive && 'bg-slate-50')}
      data-testid="product-card"
      aria-label={product.name}
      role="article"
    >
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{AD_TYPE_LABELS[product.adType] ?? product.adType}</Badge>
          {!product.isActive && <Badge tone="grey">Archived</Badge>}
        </div>
        <h3 className="mt-1 font-semibold leading-snug text-slate-900">{product.name}</h3>
        {product.description && (
          <p className="line-clamp-3 text-sm text-muted-foreground" title={product.description}>
            {product.description}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-3">
        <div>
          <p className="text-sm" data-testid="product-price">
            <span className="text-xl font-semibold tabular-nums text-slate-900">
              {formatMoney(product.defaultPrice)}
            </span>{' '}
            <span className="text-muted-foreground">{metricSuffix(product.priceMetric)}</span>
          </p>
          {product.priceMetric === 'cpm' && <p className="text-xs text-muted-foreground">per 1000 impressions</p>}
        </div>
        <ul className="grid gap-1.5 text-sm text-slate-700">
          {product.seasonalPrice !== null && (
            <li className="flex items-center gap-2">
              <Snowflake className="size-4 shrink-0 text-sky-600" aria-hidden />
              <span>
                Seasonal (Oct–Dec):{' '}
                <span className="font-medium tabular-nums">{formatMoney(product.seasonalPrice)}</span>
              </span>
            </li>
          )}
          {product.defaultDuration !== null && (
            <li className="flex items-center gap-2">
              <CalendarDays className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span>
                <span className="sr-only">Default duration: </span>
                {daysLabel(product.defaultDuration)}
              </span>
            </li>
          )}
          {product.inventoryRequired && (
            <li className="flex items-center gap-2">
              <Warehouse className="size-4 shrink-0 text-amber-600" aria-hidden />
              <span>Inventory required</span>
            </li>
          )}
          {product.inventoryRequired && product.capacity !== null && (
            <li className="flex items-center gap-2" data-testid="product-capacity">
              <Layers className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span>
                Capacity: <span className="font-medium tabular-nums">{product.capacity.toLocaleString('en-US')}</span>{' '}
                {product.capacity === 1 ? 'slot' : 'slots'} a day
              </span>
            </li>
          )}
        </ul>
      </CardContent>
      {canManage && (
        <CardFooter className="justify-end">
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil aria-hidden />
            Edit<span className="sr-only"> {product.name}</span>
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:bg-red-50 hover:text-destructive"
            onClick={onDelete}
          >
            <Trash2 aria-hidden />
            Delete<span className="sr-only"> {product.name}</span>
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}
