import { ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/**
 * A role picker. `id` and the aria props land on the trigger, so FormField's label and error wiring work.
 * `allowAll` adds an "All roles" choice (the list filter).
 */
export function RoleSelect({
  value,
  onChange,
  allowAll = false,
  disabledRoles = [],
  disabled,
  className,
  ...trigger
}: {
  value: Role | 'all';
  onChange: (value: Role | 'all') => void;
  allowAll?: boolean;
  disabledRoles?: Role[];
  disabled?: boolean;
  className?: string;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-label'?: string;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Role | 'all')} disabled={disabled}>
      <SelectTrigger className={className} {...trigger}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {allowAll && <SelectItem value="all">All roles</SelectItem>}
        {ROLES.map((role) => (
          <SelectItem key={role} value={role} disabled={disabledRoles.includes(role)}>
            {ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
