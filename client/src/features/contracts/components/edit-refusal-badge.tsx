import { editRefusal, editRefusalLabel } from '@shared/contracts/contract-lifecycle';
import { Badge } from '@/components/ui/badge';

/** Why this contract cannot be edited, in a badge (the full sentence as its title); nothing when it can. */
export function EditRefusalBadge({
  contract,
  className,
}: {
  contract: Parameters<typeof editRefusal>[0];
  className?: string;
}) {
  const label = editRefusalLabel(contract);
  if (!label) return null;
  return (
    <Badge tone="yellow" className={className} title={editRefusal(contract) ?? undefined}>
      {label}
    </Badge>
  );
}
