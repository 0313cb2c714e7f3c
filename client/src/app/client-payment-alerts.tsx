import type { PaymentAlerts } from '@shared/contracts/client-portal';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { AlertTriangle, PauseCircle } from 'lucide-react';
import { Link } from 'wouter';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { PayNowButton } from './client-invoice-actions';

const contractName = (contract: { id: string; title: string | null }) =>
  contract.title || `Contract #${shortContractId(contract.id, 6)}`;

/**
 * What the client is behind on, on the dashboard, the portal and a contract's page: the contracts paused for
 * non-payment (they resume by themselves once their overdue invoices are paid), and the overdue invoices, each
 * with what is still due, when it was due and Pay Now. Nothing at all when nothing is overdue or paused.
 */
export function ClientPaymentAlerts({
  alerts,
  linkContracts = true,
  className,
}: {
  alerts: Pick<PaymentAlerts, 'overdueCount' | 'overdueAmount' | 'overdueInvoices'> &
    Partial<Pick<PaymentAlerts, 'pausedForNonPayment'>>;
  /** Whether the paused contracts link to their pages (not on the contract's own page). */
  linkContracts?: boolean;
  className?: string;
}) {
  const paused = alerts.pausedForNonPayment ?? [];
  if (alerts.overdueCount === 0 && paused.length === 0) return null;
  const more = alerts.overdueCount - alerts.overdueInvoices.length;
  return (
    <section
      aria-labelledby="payment-alerts-title"
      className={`grid gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 ${className ?? ''}`}
      data-testid="payment-alerts"
    >
      <h2 id="payment-alerts-title" className="flex items-start gap-2 font-semibold">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        {alerts.overdueCount > 0
          ? `${formatMoney(alerts.overdueAmount)} overdue on ${alerts.overdueCount} invoice${alerts.overdueCount === 1 ? '' : 's'}`
          : 'A contract is paused for non-payment'}
      </h2>
      {paused.length > 0 && (
        <ul className="grid gap-1" aria-label="Contracts paused for non-payment">
          {paused.map((contract) => (
            <li key={contract.id} className="flex items-start gap-2" data-testid="paused-for-non-payment">
              <PauseCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>
                {linkContracts ? (
                  <Link
                    href={paths.portalContract(contract.id)}
                    className="font-medium underline underline-offset-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    {contractName(contract)}
                  </Link>
                ) : (
                  <span className="font-medium">{contractName(contract)}</span>
                )}{' '}
                is paused for non-payment: it resumes by itself when its overdue invoices are paid.
              </span>
            </li>
          ))}
        </ul>
      )}
      {alerts.overdueInvoices.length > 0 && (
        <ul className="grid gap-2" aria-label="Overdue invoices">
          {alerts.overdueInvoices.map((invoice) => (
            <li
              key={invoice.id}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border border-red-200 bg-white px-3 py-2"
              data-testid="overdue-invoice"
            >
              <span className="min-w-0">
                <span className="block font-medium text-slate-900">{invoice.number}</span>
                <span className="block text-xs text-red-800">Was due {formatDate(invoice.dueDate)}</span>
              </span>
              <span className="ml-auto flex items-center gap-3">
                <span className="font-semibold tabular-nums text-slate-900">{formatMoney(invoice.amountDue)} due</span>
                <PayNowButton invoice={invoice} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {more > 0 && (
        <p>
          And {more} more overdue invoice{more === 1 ? '' : 's'}: pay the oldest first; the rest are listed under
          Invoices.
        </p>
      )}
    </section>
  );
}
