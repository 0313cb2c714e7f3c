import { can, type Permission } from '@shared/permissions';
import {
  Bell,
  Building2,
  FileSpreadsheet,
  FileText,
  KeyRound,
  Link2,
  Percent,
  ShieldCheck,
  TrendingUp,
  UserRound,
} from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'wouter';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentUser } from '@/features/auth/api/me';

// Each tab's form loads when its tab is first shown (Radix mounts only the active tab's content).
const ProfileForm = lazy(() =>
  import('@/features/settings/components/profile-form').then((m) => ({ default: m.ProfileForm })),
);
const PasswordForm = lazy(() =>
  import('@/features/settings/components/password-form').then((m) => ({ default: m.PasswordForm })),
);
const NotificationSettingsPanel = lazy(() =>
  import('@/features/settings/components/notification-settings').then((m) => ({
    default: m.NotificationSettingsPanel,
  })),
);
const TaxSettingsPanel = lazy(() =>
  import('@/features/settings/components/tax-settings-form').then((m) => ({ default: m.TaxSettingsPanel })),
);
const ContractSettingsPanel = lazy(() =>
  import('@/features/settings/components/contract-settings-form').then((m) => ({ default: m.ContractSettingsPanel })),
);
const CompanySettingsPanel = lazy(() =>
  import('@/features/settings/components/company-settings-form').then((m) => ({ default: m.CompanySettingsPanel })),
);

const ApiKeysPanel = lazy(() =>
  import('@/features/api-keys/components/api-keys-panel').then((m) => ({ default: m.ApiKeysPanel })),
);

const WebhooksPanel = lazy(() =>
  import('@/features/webhooks/components/webhooks-panel').then((m) => ({ default: m.WebhooksPanel })),
);
const AccountingSettingsPanel = lazy(() =>
  import('@/features/accounting/components/accounting-settings-panel').then((m) => ({
    default: m.AccountingSettingsPanel,
  })),
);

const PipelineSettingsPanel = lazy(() =>
  import('@/features/pipeline/components/pipeline-settings-form').then((m) => ({ default: m.PipelineSettingsPanel })),
);

const tabFallback = <Spinner className="m-6" label="Loading settings" />;

const TABS = [
  { value: 'profile', label: 'Profile', icon: UserRound, adminOnly: false },
  { value: 'security', label: 'Security', icon: ShieldCheck, adminOnly: false },
  { value: 'notifications', label: 'Notifications', icon: Bell, adminOnly: false },
  { value: 'tax', label: 'Tax Settings', icon: Percent, adminOnly: true },
  { value: 'contracts', label: 'Contract Settings', icon: FileText, adminOnly: true },
  { value: 'company', label: 'Company', icon: Building2, adminOnly: true },
  { value: 'pipeline', label: 'Pipeline', icon: TrendingUp, adminOnly: true },
  { value: 'api-keys', label: 'API keys', icon: KeyRound, adminOnly: true },
  { value: 'webhooks', label: 'Webhooks', icon: Link2, adminOnly: true },
  { value: 'accounting', label: 'Accounting', icon: FileSpreadsheet, adminOnly: true },
] as const;

/** The permission an admin-only tab needs, when it is not the business settings' own. */
const TAB_PERMISSIONS: Partial<Record<(typeof TABS)[number]['value'], Permission>> = {
  'api-keys': 'api-key:manage',
  webhooks: 'webhook:manage',
  company: 'company:manage',
  pipeline: 'pipeline:settings',
};

export default function SettingsPage() {
  const { user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  if (!user) return null;

  // Tax and Contract Settings are admin-level only: their tabs, and so their queries, exist for those roles alone.
  const tabs = TABS.filter((tab) => !tab.adminOnly || can(user, TAB_PERMISSIONS[tab.value] ?? 'settings:write'));
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
          <Suspense fallback={tabFallback}>
            <ProfileForm user={user} />
          </Suspense>
        </TabsContent>
        <TabsContent value="security">
          <Suspense fallback={tabFallback}>
            <PasswordForm email={user.email} />
          </Suspense>
        </TabsContent>
        <TabsContent value="notifications">
          <Suspense fallback={tabFallback}>
            <NotificationSettingsPanel />
          </Suspense>
        </TabsContent>
        {can(user, 'settings:write') && (
          <>
            <TabsContent value="tax">
              <Suspense fallback={tabFallback}>
                <TaxSettingsPanel />
              </Suspense>
            </TabsContent>
            <TabsContent value="contracts">
              <Suspense fallback={tabFallback}>
                <ContractSettingsPanel />
              </Suspense>
            </TabsContent>
          </>
        )}
        {can(user, 'company:manage') && (
          <TabsContent value="company">
            <Suspense fallback={tabFallback}>
              <CompanySettingsPanel />
            </Suspense>
          </TabsContent>
        )}
        {can(user, 'pipeline:settings') && (
          <TabsContent value="pipeline">
            <Suspense fallback={tabFallback}>
              <PipelineSettingsPanel />
            </Suspense>
          </TabsContent>
        )}
        {can(user, 'api-key:manage') && (
          <TabsContent value="api-keys">
            <Suspense fallback={tabFallback}>
              <ApiKeysPanel />
            </Suspense>
          </TabsContent>
        )}
        {can(user, 'webhook:manage') && (
          <TabsContent value="webhooks">
            <Suspense fallback={tabFallback}>
              <WebhooksPanel />
            </Suspense>
          </TabsContent>
        )}
        {can(user, 'settings:write') && (
          <TabsContent value="accounting">
            <Suspense fallback={tabFallback}>
              <AccountingSettingsPanel />
            </Suspense>
          </TabsContent>
        )}
      </Tabs>
    </>
  );
}
