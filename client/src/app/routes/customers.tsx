import type { Customer } from '@shared/contracts/customers';
import { can } from '@shared/permissions';
import { UsersRound } from 'lucide-react';
import { useState } from 'react';
import { CardGridPage, useCardGridSearch } from '@/components/card-grid-page';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { CUSTOMERS_PAGE_SIZE, useCustomers } from '@/features/customers/api/get-customers';
import { CustomerCard } from '@/features/customers/components/customer-card';
import { OwnCompany } from '@/features/customers/components/own-company';

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
  const list = useCardGridSearch();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Customer | null>(null);
  const query = useCustomers({ q: list.q, page: list.page });

  return (
    <CardGridPage
      title="Customers"
      description="The advertisers you sell to, with their contacts and contracts."
      create={canWrite ? { label: 'Add Customer', onClick: () => setEditing({ customer: null }) } : undefined}
      list={list}
      searchBox={{ id: 'customer-search', label: 'Search customers', placeholder: 'Search by name, email or company' }}
      count={{ testId: 'customers-count', singular: 'customer', plural: 'customers' }}
      query={query}
      pageSize={CUSTOMERS_PAGE_SIZE}
      errorTitle="Could not load customers"
      empty={{
        icon: <UsersRound />,
        title: list.q ? 'No customers match your search' : 'No customers yet',
        text: list.q
          ? 'Try another name, email or company.'
          : canWrite
            ? 'Add the first one with "Add Customer".'
            : 'Customers appear here once they are added.',
      }}
      gridLabel="Customers"
      keyOf={(customer) => customer.id}
      card={(customer) => (
        <CustomerCard
          customer={customer}
          canEdit={canWrite}
          canDelete={canDelete}
          onEdit={() => setEditing({ customer })}
          onDelete={() => setDeleting(customer)}
        />
      )}
    >
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
    </CardGridPage>
  );
}
