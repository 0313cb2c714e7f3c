import { can } from '@shared/permissions';
import { AccessDenied } from '@/components/ui/feedback';
import { useCurrentUser } from '@/features/auth/api/me';
import { ComingSoon } from './coming-soon';

export default function PortalPage() {
  const { user } = useCurrentUser();
  if (!can(user, 'portal:access')) return <AccessDenied message="This portal is only available for client accounts" />;
  return <ComingSoon title="Client Portal" />;
}
