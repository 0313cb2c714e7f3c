import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@shared/contracts/auth';
import { type UpdateUserInput, type UserFormValues, userFormSchema } from '@shared/contracts/users';
import { can } from '@shared/permissions';
import type { Role } from '@shared/roles';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateUser } from '../api/create-user';
import { useCustomerOptions } from '../api/get-customer-options';
import { useUpdateUser } from '../api/update-user';
import { fractionToPercent, percentToFraction } from '../commission';
import { RoleSelect } from './role-select';

/** ui-spec section 9: a new user is a sales rep on 5% commission, active. */
const NEW_USER: UserFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  role: 'sales',
  commissionRate: 5,
  isActive: true,
  customerId: '',
};

const NO_CUSTOMER = 'none';

/**
 * The create/edit dialog. `user` absent means create. The dialog's content (and so the form) is mounted
 * afresh each time it opens, so it always starts from the user's current values.
 */
export function UserFormDialog({
  open,
  onOpenChange,
  user,
  currentUser,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: User | null;
  currentUser: User;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <UserForm user={user} currentUser={currentUser} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function UserForm({ user, currentUser, onDone }: { user: User | null; currentUser: User; onDone: () => void }) {
  const mode = user ? 'edit' : 'create';
  const isSelf = user?.id === currentUser.id;
  const activeId = useId();
  const form = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchema(mode)),
    defaultValues: user
      ? {
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          password: '',
          role: user.role,
          commissionRate: fractionToPercent(user.commissionRate),
          isActive: user.isActive,
          customerId: user.customerId ?? '',
        }
      : NEW_USER,
  });
  const { errors } = form.formState;
  const create = useCreateUser();
  const update = useUpdateUser();
  const busy = create.isPending || update.isPending;
  const isClient = form.watch('role') === 'client';
  const customerOptions = useCustomerOptions(isClient);
  const customerSelectId = useId();
  // Only a super admin may hand out the super admin role (the server refuses anyone else).
  const disabledRoles: Role[] = can(currentUser, 'user:manage-super-admin') ? [] : ['super_admin'];

  const submit = form.handleSubmit((values) => {
    const commissionRate = percentToFraction(values.commissionRate);
    const customerId = values.role === 'client' && values.customerId ? values.customerId : null;
    const onError = (error: Error) => showServerFieldErrors(form, error);
    if (!user) {
      create.mutate({ ...values, commissionRate, customerId }, { onSuccess: onDone, onError });
      return;
    }
    const input: UpdateUserInput = {
      firstName: values.firstName,
      lastName: values.lastName,
      email: values.email,
      role: values.role,
      commissionRate,
      isActive: values.isActive,
      customerId,
    };
    if (values.password) input.password = values.password;
    update.mutate({ id: user.id, input }, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={user ? 'Edit User' : 'Add User'}
        description={
          user
            ? `Update ${user.firstName} ${user.lastName}'s details, role and commission.`
            : 'Create an account for a colleague or client. They sign in with this email and password.'
        }
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="First Name" error={errors.firstName?.message}>
          <Input autoComplete="off" {...form.register('firstName')} />
        </FormField>
        <FormField label="Last Name" error={errors.lastName?.message}>
          <Input autoComplete="off" {...form.register('lastName')} />
        </FormField>
      </div>
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="off" {...form.register('email')} />
      </FormField>
      <FormField
        label="Password"
        error={errors.password?.message}
        hint={user ? 'Leave blank to keep the current password.' : 'At least 6 characters.'}
      >
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>

      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <FormField
              label="Role"
              error={errors.role?.message}
              hint={isSelf ? 'You cannot change your own role.' : undefined}
            >
              <RoleSelect
                value={field.value}
                onChange={(role) => field.onChange(role)}
                disabledRoles={disabledRoles.filter((r) => r !== user?.role)}
                disabled={isSelf}
              />
            </FormField>
          )}
        />
        <FormField label="Commission Rate (%)" error={errors.commissionRate?.message}>
          <Input
            type="number"
            inputMode="decimal"
            step={0.1}
            min={0}
            max={100}
            {...form.register('commissionRate', { valueAsNumber: true })}
          />
        </FormField>
      </div>

      {isClient && (
        <Controller
          control={form.control}
          name="customerId"
          render={({ field }) => (
            <div className="grid gap-1.5">
              <Label htmlFor={customerSelectId}>Customer</Label>
              <Select
                value={field.value || NO_CUSTOMER}
                onValueChange={(value) => field.onChange(value === NO_CUSTOMER ? '' : value)}
              >
                <SelectTrigger id={customerSelectId} aria-describedby={`${customerSelectId}-hint`}>
                  <SelectValue placeholder={customerOptions.isLoading ? 'Loading...' : 'Choose a customer'} />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NO_CUSTOMER}>No customer</SelectItem>
                  {customerOptions.data?.map((customer) => (
                    <SelectItem key={customer.id} value={customer.id}>
                      {customer.name} ({customer.email})
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p id={`${customerSelectId}-hint`} className="text-xs text-muted-foreground">
                A client account sees this customer's contracts and invoices.
              </p>
            </div>
          )}
        />
      )}

      <Controller
        control={form.control}
        name="isActive"
        render={({ field }) => (
          <div className="flex items-center justify-between gap-4 rounded-lg border px-4 py-3">
            <div className="grid gap-1">
              <Label htmlFor={activeId}>Active</Label>
              <p id={`${activeId}-hint`} className="text-xs text-muted-foreground">
                {isSelf ? 'You cannot deactivate your own account.' : 'Inactive users cannot sign in.'}
              </p>
            </div>
            <Switch
              id={activeId}
              aria-describedby={`${activeId}-hint`}
              checked={field.value}
              onCheckedChange={field.onChange}
              disabled={isSelf}
            />
          </div>
        )}
      />

      <DialogFormButtons {...saveOrCreate(Boolean(user), 'Create User')} busy={busy} onCancel={onDone} />
    </form>
  );
}
