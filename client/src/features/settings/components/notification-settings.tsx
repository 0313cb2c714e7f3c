import type { NotificationSettings } from '@shared/contracts/settings';
import { ErrorState } from '@/components/ui/feedback';
import { useNotificationSettings } from '../api/get-notification-settings';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';
import { SettingsCard, SettingsFormSkeleton } from './settings-card';
import { SwitchField } from './switch-field';

const FLAGS: { key: keyof NotificationSettings; label: string; description: string }[] = [
  {
    key: 'emailContractUpdates',
    label: 'Contract updates',
    description: 'Email me when a contract is created, sent to a customer, or changes status.',
  },
  {
    key: 'emailPaymentNotifications',
    label: 'Payment notifications',
    description: 'Email me when a payment is received or fails.',
  },
  {
    key: 'emailCommissionAlerts',
    label: 'Commission alerts',
    description: 'Email me when a commission becomes available or a payout request changes.',
  },
  {
    key: 'emailSystemMaintenance',
    label: 'System maintenance',
    description: 'Email me about planned downtime and product updates.',
  },
  {
    key: 'emailAccountSecurity',
    label: 'Account security',
    description: 'Email me about password changes and other security events on my account.',
  },
];

/** Each switch saves at once: all five flags are sent on every toggle. */
export function NotificationSettingsPanel() {
  const { data, isLoading, error } = useNotificationSettings();
  const update = useUpdateNotificationSettings();

  return (
    <SettingsCard
      title="Email Notifications"
      description="Choose which emails you receive. Changes are saved as you go."
    >
      {isLoading && <SettingsFormSkeleton rows={5} />}
      {error && !data && <ErrorState title="Could not load your notification preferences" />}
      {data && (
        <div className="divide-y">
          {FLAGS.map(({ key, label, description }) => (
            <SwitchField
              key={key}
              label={label}
              description={description}
              checked={data[key]}
              onCheckedChange={(checked) => update.mutate({ ...data, [key]: checked })}
            />
          ))}
        </div>
      )}
    </SettingsCard>
  );
}
