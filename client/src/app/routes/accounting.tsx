import { can } from '@shared/permissions';
import { useState } from 'react';
import { AccessDenied } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { useAccountingSettings } from '@/features/accounting/api/get-accounting-settings';
import { CodesNotice } from '@/features/accounting/components/codes-notice';
import { ExportFormCard } from '@/features/accounting/components/export-form-card';
import { ExportsTable } from '@/features/accounting/components/exports-table';
import { useCurrentUser } from '@/features/auth/api/me';

/**
 * Accounting export (finance and admins; product.md section 16, decision 043): make a numbered batch of one
 * format from a range of days, holding what no earlier batch of that format held, and download any batch
 * again, the same file every time.
 */
export default function AccountingPage() {
  const { user } = useCurrentUser();
  const allowed = can(user, 'accounting:export');
  const settings = useAccountingSettings({ enabled: allowed });
  const [page, setPage] = useState(0);

  if (!allowed) return <AccessDenied message="You don't have permission to export to accounting" />;

  return (
    <>
      <PageHeader
        title="Accounting"
        description="Invoices, credit notes, payments and refunds as files for Xero, QuickBooks or a journal. Each batch holds only what no earlier batch of its format held, and never changes."
      />
      {settings.data && <CodesNotice settings={settings.data} canEdit={can(user, 'settings:write')} />}
      <ExportFormCard />
      <h2 className="mb-3 text-base font-semibold text-slate-900">Batches</h2>
      <ExportsTable page={page} onPageChange={setPage} />
    </>
  );
}
