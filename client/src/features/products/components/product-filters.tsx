import { AD_TYPE_LABELS, AD_TYPES, type AdType } from '@shared/contracts/product-vocabulary';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { ProductStatusFilter } from '../api/get-products';

const STATUS_LABELS: Record<ProductStatusFilter, string> = {
  all: 'All products',
  active: 'Active',
  archived: 'Archived',
};

/** Active / archived filter (server-side). */
export function ProductStatusSelect({
  value,
  onChange,
}: {
  value: ProductStatusFilter;
  onChange: (value: ProductStatusFilter) => void;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as ProductStatusFilter)}>
      <SelectTrigger aria-label="Filter by status" className="sm:w-40">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {(Object.keys(STATUS_LABELS) as ProductStatusFilter[]).map((status) => (
          <SelectItem key={status} value={status}>
            {STATUS_LABELS[status]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** Ad type filter (server-side). */
export function AdTypeFilterSelect({
  value,
  onChange,
}: {
  value: AdType | 'all';
  onChange: (value: AdType | 'all') => void;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as AdType | 'all')}>
      <SelectTrigger aria-label="Filter by ad type" className="sm:w-56">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="all">All ad types</SelectItem>
        {AD_TYPES.map((type) => (
          <SelectItem key={type} value={type}>
            {AD_TYPE_LABELS[type]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
