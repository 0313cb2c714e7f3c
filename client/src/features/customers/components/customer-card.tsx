import type { Customer } from '@shared/contracts/customers';
import { Building2, Eye, FileText, Mail, MapPin, Pencil, Phone, Trash2 } from 'lucide-react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { EmailText } from '@/components/ui/email-text';
import { paths } from '@/lib/paths';
import { contractCountLabel, placeLabel } from '../format';

/** One customer in the grid: contact lines, contract counts and the actions the user may take. */
export function CustomerCard({
  customer,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: {
  customer: Customer;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const place = placeLabel(customer);
  // A company named like the customer would only repeat the heading.
  const showCompany =
    Boolean(customer.company) && customer.company?.trim().toLowerCase() !== customer.name.trim().toLowerCase();
  return (
    <Card className="flex min-w-0 flex-col" data-testid="customer-card" aria-label={customer.name} role="article">
      <CardHeader className="flex-row items-center gap-3">
        <span
          aria-hidden
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700"
        >
          <Building2 className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold leading-tight text-slate-900" title={customer.name}>
            {customer.name}
          </h3>
          {showCompany && (
            <p className="mt-1 truncate text-sm text-muted-foreground" title={customer.company ?? undefined}>
              {customer.company}
            </p>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-3">
        <ul className="grid gap-1.5 text-sm text-slate-700">
          <li className="flex min-w-0 items-center gap-2">
            <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <span className="sr-only">Email: </span>
            <a
              href={`mailto:${customer.email}`}
              className="min-w-0 rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <EmailText email={customer.email} />
            </a>
          </li>
          {customer.phone && (
            <li className="flex items-center gap-2">
              <Phone className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="sr-only">Phone: </span>
              <span className="min-w-0 truncate">{customer.phone}</span>
            </li>
          )}
          {place && (
            <li className="flex items-center gap-2">
              <MapPin className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="sr-only">Location: </span>
              <span className="min-w-0 truncate">{place}</span>
            </li>
          )}
        </ul>
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-muted/50 px-3 py-2 text-sm">
          <FileText className="size-4 text-muted-foreground" aria-hidden />
          <span className="font-medium text-slate-900" data-testid="contract-count">
            {contractCountLabel(customer.contractCount)}
          </span>
          <Badge tone={customer.activeContractCount > 0 ? 'green' : 'grey'} data-testid="active-count">
            {customer.activeContractCount} active
          </Badge>
        </div>
      </CardContent>
      <CardFooter className="flex-wrap justify-end">
        <Button variant="outline" size="sm" asChild>
          <Link href={paths.customer(customer.id)}>
            <Eye aria-hidden />
            View<span className="sr-only"> {customer.name}</span>
          </Link>
        </Button>
        {canEdit && (
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil aria-hidden />
            Edit<span className="sr-only"> {customer.name}</span>
          </Button>
        )}
        {canDelete && (
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:bg-red-50 hover:text-destructive"
            onClick={onDelete}
          >
            <Trash2 aria-hidden />
            Delete<span className="sr-only"> {customer.name}</span>
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
