import type { ContractPackage } from '@shared/contracts/contract-responses';
import { Package as PackageIcon } from 'lucide-react';
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
        <div className="overflow-x-auto rounded-lg border bg-white">
          <table className="w-full text-sm">
            <caption className="sr-only">Items in {pkg.name}</caption>
            <thead className="whitespace-nowrap bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Item
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Qty
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Custom Price
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Description
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Notes
                </th>
              </tr>
            </thead>
            <tbody>
              {pkg.items.map((item) => (
                <tr key={item.id} className="border-t align-top">
                  <td className="px-3 py-2 font-medium text-slate-900">
                    {item.product?.name ?? item.productName ?? 'Custom item'}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{item.quantity}</td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {item.customPrice === null ? '—' : formatMoney(item.customPrice)}
                  </td>
                  <td className="px-3 py-2 text-muted-foreground">{item.customDescription || '—'}</td>
                  <td className="px-3 py-2 text-muted-foreground">{item.notes || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
