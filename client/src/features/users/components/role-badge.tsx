import { ROLE_LABELS, type Role } from '@shared/roles';
import { Badge } from '@/components/ui/badge';

/** The role as the header shows it for the signed-in user. */
export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone="indigo">{ROLE_LABELS[role] ?? role}</Badge>;
}
