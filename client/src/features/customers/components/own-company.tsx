import { Building2 } from 'lucide-react';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { useCustomers } from '../api/get-customers';
import { CustomerDetails } from './customer-details';

/**
 * The Customers entry as a client sees it: their own company's record (the API answers a client with
 * that one record, without internal notes), read-only.
 */
export function OwnCompany() {
  const { data, isLoading, error } = useCustomers({ q: '', page: 0 });
  const company = data?.rows[0];
  return (
    <>
      <PageHeader
        title="Your Company"
        description="Your company's details as we have them on file. To change them, contact your account manager."
      />
      {isLoading && <Skeleton className="h-56 rounded-xl" aria-busy="true" />}
      {error && !data && <ErrorState title="Could not load your company">Reload the page to try again.</ErrorState>}
      {data && !company && (
        <EmptyState icon={<Building2 />} title="No company linked to your account">
          Your account manager links your account to your company; then its details show here.
        </EmptyState>
      )}
      {company && (
        <div className="grid gap-2">
          <h2 className="text-lg font-semibold text-slate-900">{company.name}</h2>
          <CustomerDetails customer={company} showNotes={false} />
        </div>
      )}
    </>
  );
}
