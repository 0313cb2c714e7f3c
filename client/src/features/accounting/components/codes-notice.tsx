import { ACCOUNT_FIELDS, type AccountingSettings, unsetAccounts } from '@shared/contracts/accounting-vocabulary';
import { AD_TYPES } from '@shared/contracts/product-vocabulary';
import { TriangleAlert } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '@/lib/paths';

/**
 * Says which account codes are not set (an export that needs one is refused): admins get the link to
 * Settings › Accounting, finance is told to ask an admin. Nothing when every code is set.
 */
export function CodesNotice({ settings, canEdit }: { settings: AccountingSettings; canEdit: boolean }) {
  const unset = unsetAccounts(settings);
  if (unset.length === 0) return null;
  const none = unset.length === AD_TYPES.length + ACCOUNT_FIELDS.length;
  return (
    <div
      role="status"
      className="mb-6 flex gap-3 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      data-testid="codes-notice"
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="grid min-w-0 gap-1">
        <p className="font-medium">
          {none
            ? 'No account codes are set yet: every export is refused until they are.'
            : 'Some account codes are not set: an export that needs one is refused.'}
        </p>
        {!none && <p className="break-words">Not set: {unset.join(', ')}.</p>}
        <p>
          {canEdit ? (
            <Link href={`${paths.settings}?tab=accounting`} className="font-medium underline underline-offset-2">
              Set them in Settings › Accounting
            </Link>
          ) : (
            'Ask an admin to set them in Settings › Accounting.'
          )}
        </p>
      </div>
    </div>
  );
}
