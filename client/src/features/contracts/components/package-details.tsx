import type { ContractPackage } from '@shared/contracts/contract-responses';
import { Package as PackageIcon } from 'lucide-react';
import { type Column, DataTable } from '@/components/ui/data-table';
import { formatMoney } from '../lib/format';

type PackageLike = Pick<ContractPackage, 'name' | 'price' | 'description'> & {
  items: {
    id: string;
    productName: string | null;
    quantity: number;
    customPrice: number | null;
    customDescription: string | null;
    notes: string | null;
    product: { name: string } | null;
  }[];
};

/** The package's items in their order. */
const ITEM_COLUMNS: Column<PackageLike['items'][number]>[] = [
  {
    id: 'item',
    header: 'Item',
    cellClassName: 'font-medium text-slate-900',
    cell: (item) => item.product?.name ?? item.productName ?? 'Custom item',
  },
  { id: 'quantity', header: 'Qty', align: 'right', cell: (item) => item.quantity },
  {
    id: 'custom-price',
    header: 'Custom Price',
    align: 'right',
    cell: (item) => (item.customPrice === null ? '—' : formatMoney(item.customPrice)),
  },
  {
    id: 'description',
    header: 'Description',
    cellClassName: 'text-muted-foreground',
    cell: (item) => item.customDescription || '—',
  },
  { id: 'notes', header: 'Notes', cellClassName: 'text-muted-foreground', cell: (item) => item.notes || '—' },
];

/** A package's name, monthly price, description and items: in the contract form and on the detail page. */
export function PackageDetails({ pkg, headingLevel = 'h3' }: { pkg: PackageLike; headingLevel?: 'h3' | 'h4' }) {
  const Heading = headingLevel;
  return (
    <div className="grid gap-3" data-testid="package-details">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex items-center gap-2">
          <PackageIcon className="size-4 text-primary" aria-hidden />
          <Heading className="font-semibold text-slate-900">{pkg.name}</Heading>
        </div>
        <p className="text-sm font-semibold tabular-nums text-slate-900">{formatMoney(pkg.price)} / month</p>
      </div>
      {pkg.description && <p className="text-sm text-muted-foreground">{pkg.description}</p>}
      {pkg.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">This package has no items.</p>
      ) : (
        <DataTable
          caption={`Items in ${pkg.name}`}
          columns={ITEM_COLUMNS}
          rows={pkg.items}
          rowKey={(item) => item.id}
          density="compact"
        />
      )}
    </div>
  );
}
