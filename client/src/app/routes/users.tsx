import type { User } from '@shared/contracts/auth';
import { can } from '@shared/permissions';
import type { Role } from '@shared/roles';
import { UsersRound } from 'lucide-react';
import { useState } from 'react';
import { CardGridPage, useCardGridSearch } from '@/components/card-grid-page';
import { AccessDenied } from '@/components/ui/feedback';
import { lazyWhen } from '@/components/ui/lazy-when';
import { useCurrentUser } from '@/features/auth/api/me';
import { USERS_PAGE_SIZE, useUsers } from '@/features/users/api/get-users';
import { RoleSelect } from '@/features/users/components/role-select';
import { UserCard } from '@/features/users/components/user-card';

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
  const [role, setRole] = useState<Role | 'all'>('all');
  const list = useCardGridSearch([role]);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const query = useUsers({ q: list.q, role, page: list.page }, { enabled: allowed });

  if (!me || !allowed) return <AccessDenied message="You don't have permission to manage users" />;

  const filtered = list.q !== '' || role !== 'all';
  const mayTouch = (u: User) => manages && (u.role !== 'super_admin' || can(me, 'user:manage-super-admin'));

  return (
    <CardGridPage
      title="Users"
      description={
        manages
          ? 'Staff and client accounts: who can sign in, their role and their commission rate.'
          : 'The team: who works here, their role and their commission rate. Admins manage the accounts.'
      }
      create={manages ? { label: 'Add User', onClick: () => setEditing({ user: null }) } : undefined}
      list={list}
      searchBox={{ id: 'user-search', label: 'Search users', placeholder: 'Search by name or email' }}
      filters={<RoleSelect value={role} onChange={setRole} allowAll aria-label="Filter by role" className="sm:w-48" />}
      count={{ testId: 'users-count', singular: 'user', plural: 'users' }}
      query={query}
      pageSize={USERS_PAGE_SIZE}
      errorTitle="Could not load users"
      empty={{
        icon: <UsersRound />,
        title: filtered ? 'No users match your search' : 'No users yet',
        text: filtered
          ? 'Try another name, email or role.'
          : manages
            ? 'Add the first account with "Add User".'
            : 'Accounts appear here once an admin adds them.',
      }}
      gridLabel="Users"
      keyOf={(u) => u.id}
      card={(u) => (
        <UserCard
          user={u}
          isSelf={u.id === me.id}
          canEdit={mayTouch(u)}
          canDelete={u.id !== me.id && mayTouch(u)}
          onEdit={() => setEditing({ user: u })}
          onDelete={() => setDeleting(u)}
          onSendReset={u.isActive && mayTouch(u) ? () => setResetting(u) : undefined}
        />
      )}
    >
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
    </CardGridPage>
  );
}
