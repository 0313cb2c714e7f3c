import type { User } from '@shared/contracts/auth';
import { KeyRound, Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { EmailText } from '@/components/ui/email-text';
import { formatDate, initials } from '@/lib/format';
import { formatPercent } from '../commission';
import { RoleBadge } from './role-badge';

/** One user in the grid. Delete is absent on one's own card; either action is absent when the server would refuse it. */
export function UserCard({
  user,
  isSelf,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  onSendReset,
}: {
  user: User;
  isSelf: boolean;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
  /** Sends the user a set-password link (admin-level; absent when the server would refuse). */
  onSendReset?: () => void;
}) {
  const name = `${user.firstName} ${user.lastName}`;
  return (
    <Card className="flex flex-col" data-testid="user-card" aria-label={name} role="article">
      <CardHeader className="flex-row items-center gap-3">
        <span
          aria-hidden
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700"
        >
          {initials(user.firstName, user.lastName)}
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="flex items-baseline gap-2 font-semibold leading-tight text-slate-900">
            <span className="truncate" title={name}>
              {name}
            </span>
            {isSelf && <span className="shrink-0 text-xs font-normal text-muted-foreground">(you)</span>}
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">
            <EmailText email={user.email} />
          </p>
        </div>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <RoleBadge role={user.role} />
          <Badge tone={user.isActive ? 'green' : 'grey'}>{user.isActive ? 'Active' : 'Inactive'}</Badge>
        </div>
        <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted/50 px-3 py-2.5 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Commission rate</dt>
            <dd className="font-medium tabular-nums text-slate-900">{formatPercent(user.commissionRate)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Created</dt>
            <dd className="font-medium text-slate-900">{formatDate(user.createdAt)}</dd>
          </div>
        </dl>
      </CardContent>
      {(canEdit || canDelete || onSendReset) && (
        <CardFooter className="justify-end">
          {onSendReset && (
            <Button variant="outline" size="sm" onClick={onSendReset} title="Send password reset">
              <KeyRound aria-hidden />
              <span className="sr-only">Reset password of {name}</span>
            </Button>
          )}
          {canEdit && (
            <Button variant="outline" size="sm" onClick={onEdit}>
              <Pencil aria-hidden />
              Edit<span className="sr-only"> {name}</span>
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
              Delete<span className="sr-only"> {name}</span>
            </Button>
          )}
        </CardFooter>
      )}
    </Card>
  );
}
