import { can } from '@shared/permissions';
import { Bell, FileText, Percent, ShieldCheck, UserRound } from 'lucide-react';
import { useSearchParams } from 'wouter';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentUser } from '@/features/auth/api/me';
import { ContractSettingsPanel } from '@/features/settings/components/contract-settings-form';
import { NotificationSettingsPanel } from '@/features/settings/components/notification-settings';
import { PasswordForm } from '@/features/settings/components/password-form';
import { ProfileForm } from '@/features/settings/components/profile-form';
import { TaxSettingsPanel } from '@/features/settings/components/tax-settings-form';

const TABS = [
  { value: 'profile', label: 'Profile', icon: UserRound, adminOnly: false },
  { value: 'security', label: 'Security', icon: ShieldCheck, adminOnly: false },
  { value: 'notifications', label: 'Notifications', icon: Bell, adminOnly: false },
  { value: 'tax', label: 'Tax Settings', icon: Percent, adminOnly: true },
  { value: 'contracts', label: 'Contract Settings', icon: FileText, adminOnly: true },
] as const;

export default function SettingsPage() {
  const { user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  if (!user) return null;

  // Tax and Contract Settings are admin-level only: their tabs, and so their queries, exist for those roles alone.
  const tabs = TABS.filter((tab) => !tab.adminOnly || can(user, 'settings:write'));
  const requested = params.get('tab');
  const active = tabs.some((tab) => tab.value === requested) ? requested! : 'profile';

  return (
    <>
      <PageHeader
        title="Settings"
        description={
          can(user, 'settings:write')
            ? 'Your profile, password and email notifications, and the business-wide tax and contract settings.'
            : 'Your profile, password and email notifications.'
        }
      />
      <Tabs
        value={active}
        onValueChange={(tab) => setParams(tab === 'profile' ? {} : { tab }, { replace: true })}
        className="grid gap-2"
      >
        <TabsList aria-label="Settings sections" className="h-auto w-fit max-w-full">
          {tabs.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value}>
              <Icon aria-hidden />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile">
          <ProfileForm user={user} />
        </TabsContent>
        <TabsContent value="security">
          <PasswordForm email={user.email} />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationSettingsPanel />
        </TabsContent>
        {can(user, 'settings:write') && (
          <>
            <TabsContent value="tax">
              <TaxSettingsPanel />
            </TabsContent>
            <TabsContent value="contracts">
              <ContractSettingsPanel />
            </TabsContent>
          </>
        )}
      </Tabs>
    </>
  );
}
