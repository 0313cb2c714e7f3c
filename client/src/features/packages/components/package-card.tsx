import type { Package } from '@shared/contracts/packages';
import { Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { formatMoney } from '@/lib/format';
import { itemName } from '../format';

/** One package: its price, description and what it contains. */
export function PackageCard({ pkg, onEdit, onDelete }: { pkg: Package; onEdit: () => void; onDelete: () => void }) {
  return (
    <Card className="flex min-w-0 flex-col" data-testid="package-card" aria-label={pkg.name} role="article">
      <CardHeader>
        <h3 className="font-semibold leading-snug text-slate-900">{pkg.name}</h3>
        <p className="text-sm" data-testid="package-price">
          <span className="text-xl font-semibold tabular-nums text-slate-900">{formatMoney(pkg.price)}</span>{' '}
          <span className="text-muted-foreground">/ month</span>
        </p>
        {pkg.description && (
          <p className="line-clamp-3 text-sm text-muted-foreground" title={pkg.description}>
            {pkg.description}
          </p>
        )}
      </CardHeader>
      <CardContent className="flex-1">
        <h4 className="mb-2 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
          {pkg.items.length === 0 ? 'No items' : `Items (${pkg.items.length})`}
        </h4>
        {pkg.items.length > 0 && (
          <ul className="divide-y rounded-lg border text-sm" aria-label={`Items of ${pkg.name}`}>
            {pkg.items.map((item) => (
              <li key={item.id} className="px-3 py-2">
                <div className="flex items-baseline justify-between gap-3">
                  <span className="min-w-0 font-medium text-slate-900">
                    {itemName(item)}{' '}
                    <span className="whitespace-nowrap font-normal text-muted-foreground">× {item.quantity}</span>
                    {!item.productId && (
                      <Badge tone="grey" className="ml-2 align-middle">
                        Custom
                      </Badge>
                    )}
                    {item.product && !item.product.isActive && (
                      <Badge tone="grey" className="ml-2 align-middle">
                        Archived
                      </Badge>
                    )}
                  </span>
                  {item.customPrice !== null && (
                    <span className="shrink-0 text-right tabular-nums text-slate-700">
                      <span className="block text-[11px] leading-tight text-muted-foreground">Custom price</span>
                      {formatMoney(item.customPrice)}
                    </span>
                  )}
                </div>
                {item.customDescription && <p className="mt-0.5 text-muted-foreground">{item.customDescription}</p>}
                {item.notes && <p className="mt-0.5 text-xs italic text-muted-foreground">Note: {item.notes}</p>}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <CardFooter className="justify-end">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil aria-hidden />
          Edit<span className="sr-only"> {pkg.name}</span>
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:bg-red-50 hover:text-destructive"
          onClick={onDelete}
        >
          <Trash2 aria-hidden />
          Delete<span className="sr-only"> {pkg.name}</span>
        </Button>
      </CardFooter>
    </Card>
  );
}
