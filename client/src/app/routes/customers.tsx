import type { Customer } from '@shared/contracts/customers';
import { can } from '@shared/permissions';
import { Plus, UsersRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CardGridSkeleton, EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { useCurrentUser } from '@/features/auth/api/me';
import { CUSTOMERS_PAGE_SIZE, useCustomers } from '@/features/customers/api/get-customers';
import { CustomerCard } from '@/features/customers/components/customer-card';
import { OwnCompany } from '@/features/customers/components/own-company';
import { countLabel } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const CustomerFormDialog = lazyWhen(
  () => import('@/features/customers/components/customer-form-dialog').then((module) => module.CustomerFormDialog),
  (props) => props.open,
);
const DeleteCustomerDialog = lazyWhen(
  () => import('@/features/customers/components/delete-customer-dialog').then((module) => module.DeleteCustomerDialog),
  (props) => props.customer !== null,
);

type Editing = { customer: Customer | null } | null;

export default function CustomersPage() {
  const { user } = useCurrentUser();
  // A client reads only their own company's record: that, not the staff's customer list.
  if (user && !can(user, 'customer:read:any')) return <OwnCompany />;
  return <CustomerList />;
}

function CustomerList() {
  const { user } = useCurrentUser();
  const canWrite = can(user, 'customer:write');
  const canDelete = can(user, 'customer:delete');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Customer | null>(null);
  const { data, isLoading, isFetching, error } = useCustomers({ q, page });

  // A new search starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the search changes
  useEffect(() => setPage(0), [q]);
  // Deleting the last customer of the last page steps back a page.
  useEffect(() => {
    if (data && data.rows.length === 0 && page > 0) {
      setPage(Math.max(0, Math.ceil(data.total / CUSTOMERS_PAGE_SIZE) - 1));
    }
  }, [data, page]);

  const pages = data ? Math.max(1, Math.ceil(data.total / CUSTOMERS_PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeader
        title="Customers"
        description="The advertisers you sell to, with their contacts and contracts."
        actions={
          canWrite && (
            <Button onClick={() => setEditing({ customer: null })}>
              <Plus aria-hidden /> Add Customer
            </Button>
          )
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          id="customer-search"
          label="Search customers"
          placeholder="Search by name, email or company"
          value={search}
          onChange={setSearch}
        />
        <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite" data-testid="customers-count">
          {data ? countLabel(data.total, data.totalIsLowerBound, 'customer', 'customers') : '\u00a0'}
        </p>
      </div>

      {isLoading && <CardGridSkeleton count={6} />}
      {error && !data && <ErrorState title="Could not load customers">Reload the page to try again.</ErrorState>}
      {data && data.rows.length === 0 && (
        <EmptyState icon={<UsersRound />} title={q ? 'No customers match your search' : 'No customers yet'}>
          {q
            ? 'Try another name, email or company.'
            : canWrite
              ? 'Add the first one with "Add Customer".'
              : 'Customers appear here once they are added.'}
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <>
          <ul
            aria-label="Customers"
            aria-busy={isFetching}
            className={`grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 xl:grid-cols-3 ${isFetching ? 'opacity-70' : ''}`}
          >
            {data.rows.map((customer) => (
              <li key={customer.id} className="grid min-w-0">
                <CustomerCard
                  customer={customer}
                  canEdit={canWrite}
                  canDelete={canDelete}
                  onEdit={() => setEditing({ customer })}
                  onDelete={() => setDeleting(customer)}
                />
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={pages} more={data?.totalIsLowerBound} onPageChange={setPage} />
        </>
      )}

      {canWrite && (
        <CustomerFormDialog
          open={editing !== null}
          onOpenChange={(open) => {
            if (!open) setEditing(null);
          }}
          customer={editing?.customer ?? null}
        />
      )}
      {canDelete && <DeleteCustomerDialog customer={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}
