import {
  INVOICE_DOCUMENT_TYPE_LABELS,
  INVOICE_DOCUMENT_TYPES,
  type InvoiceDocumentType,
} from '@shared/contracts/credit-notes';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** The Invoices screen's Type filter: invoices, or the credit notes issued on them. */
export function DocumentTypeFilter({
  value,
  onChange,
}: {
  value: InvoiceDocumentType;
  onChange: (value: InvoiceDocumentType) => void;
}) {
  return (
    <div className="grid gap-1 xl:w-40">
      <Label htmlFor="invoice-type-filter" className="text-xs text-muted-foreground">
        Type
      </Label>
      <Select value={value} onValueChange={(type) => onChange(type as InvoiceDocumentType)}>
        <SelectTrigger id="invoice-type-filter" aria-label="Filter by type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {INVOICE_DOCUMENT_TYPES.map((type) => (
            <SelectItem key={type} value={type}>
              {INVOICE_DOCUMENT_TYPE_LABELS[type]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
