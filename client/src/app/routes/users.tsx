import type { User } from '@shared/contracts/auth';
import { can } from '@shared/permissions';
import type { Role } from '@shared/roles';
import { Plus, UsersRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { AccessDenied, CardGridSkeleton, EmptyState, ErrorState } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { useCurrentUser } from '@/features/auth/api/me';
import { USERS_PAGE_SIZE, useUsers } from '@/features/users/api/get-users';
import { RoleSelect } from '@/features/users/components/role-select';
import { UserCard } from '@/features/users/components/user-card';
import { useDebouncedValue } from '@/lib/use-debounced-value';

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const UserFormDialog = lazyWhen(
  () => import('@/features/users/components/user-form-dialog').then((module) => module.UserFormDialog),
  (props) => props.open,
);
const DeleteUserDialog = lazyWhen(
  () => import('@/features/users/components/delete-user-dialog').then((module) => module.DeleteUserDialog),
  (props) => props.user !== null,
);
const SendPasswordResetDialog = lazyWhen(
  () =>
    import('@/features/users/components/send-password-reset-dialog').then((module) => module.SendPasswordResetDialog),
  (props) => props.user !== null,
);

type Editing = { user: User | null } | null;

export default function UsersPage() {
  const { user: me } = useCurrentUser();
  // Admins manage accounts; a sales manager sees the team read-only (product.md section 3).
  const allowed = can(me, 'user:read');
  const manages = can(me, 'user:manage');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [role, setRole] = useState<Role | 'all'>('all');
  // The page belongs to one search and filter: a new search or filter starts again from the first page.
  const filterKey = JSON.stringify([q, role]);
  const [paging, setPaging] = useState({ filterKey, page: 0 });
  const page = paging.filterKey === filterKey ? paging.page : 0;
  const setPage = (next: number) => setPaging({ filterKey, page: next });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const { data, isLoading, isFetching, error } = useUsers({ q, role, page }, { enabled: allowed });

  // Deleting the last user of the last page steps back a page.
  const lastPage = data ? Math.max(0, Math.ceil(data.total / USERS_PAGE_SIZE) - 1) : 0;
  useEffect(() => {
    if (data && data.rows.length === 0 && page > lastPage) setPaging({ filterKey, page: lastPage });
  }, [data, page, lastPage, filterKey]);

  if (!me || !allowed) return <AccessDenied message="You don't have permission to manage users" />;

  const pages = data ? Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE)) : 1;
  const filtered = q !== '' || role !== 'all';
  const mayTouch = (u: User) => manages && (u.role !== 'super_admin' || can(me, 'user:manage-super-admin'));

  return (
    <>
      <PageHeader
        title="Users"
        description={
          manages
            ? 'Staff and client accounts: who can sign in, their role and their commission rate.'
            : 'The team: who works here, their role and their commission rate. Admins manage the accounts.'
        }
        actions={
          manages && (
            <Button onClick={() => setEditing({ user: null })}>
              <Plus aria-hidden /> Add User
            </Button>
          )
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          id="user-search"
          label="Search users"
          placeholder="Search by name or email"
          value={search}
          onChange={setSearch}
        />
        <RoleSelect value={role} onChange={setRole} allowAll aria-label="Filter by role" className="sm:w-48" />
        <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite" data-testid="users-count">
          {data ? `${data.total} user${data.total === 1 ? '' : 's'}` : '\u00a0'}
        </p>
      </div>

      {isLoading && <CardGridSkeleton count={6} />}
      {error && !data && <ErrorState title="Could not load users">Reload the page to try again.</ErrorState>}
      {data && data.rows.length === 0 && (
        <EmptyState icon={<UsersRound />} title={filtered ? 'No users match your search' : 'No users yet'}>
          {filtered
            ? 'Try another name, email or role.'
            : manages
              ? 'Add the first account with "Add User".'
              : 'Accounts appear here once an admin adds them.'}
        </EmptyState>
      )}
      {data && data.rows.length > 0 && (
        <>
          <ul
            aria-label="Users"
            aria-busy={isFetching}
            className={`grid grid-cols-1 gap-4 transition-opacity sm:grid-cols-2 xl:grid-cols-3 ${isFetching ? 'opacity-70' : ''}`}
          >
            {data.rows.map((u) => (
              <li key={u.id} className="grid min-w-0 grid-cols-1">
                <UserCard
                  user={u}
                  isSelf={u.id === me.id}
                  canEdit={mayTouch(u)}
                  canDelete={u.id !== me.id && mayTouch(u)}
                  onEdit={() => setEditing({ user: u })}
                  onDelete={() => setDeleting(u)}
                  onSendReset={u.isActive && mayTouch(u) ? () => setResetting(u) : undefined}
                />
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={pages} onPageChange={setPage} />
        </>
      )}

      {manages && (
        <>
          <UserFormDialog
            open={editing !== null}
            onOpenChange={(open) => {
              if (!open) setEditing(null);
            }}
            user={editing?.user ?? null}
            currentUser={me}
          />
          <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
          <SendPasswordResetDialog user={resetting} onClose={() => setResetting(null)} />
        </>
      )}
    </>
  );
}
