import type { PackageItem } from '@shared/contracts/packages';

/** What an item is called: its catalog product's name, else its custom name. */
export function itemName(item: Pick<PackageItem, 'product' | 'productName'>): string {
  return item.product?.name ?? item.productName ?? 'Custom item';
}
