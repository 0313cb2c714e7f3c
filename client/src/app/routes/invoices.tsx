import type { InvoiceDocumentType } from '@shared/contracts/credit-notes';
import { INVOICE_STATUS_LABELS, INVOICE_STATUSES, type InvoiceStatus } from '@shared/contracts/invoice-vocabulary';
import type { InvoiceSummary } from '@shared/contracts/invoices';
import { can } from '@shared/permissions';
import { Receipt, ReceiptText, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { Button } from '@/components/ui/button';
import { AccessDenied, EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import { lazyWhen } from '@/components/ui/lazy-when';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SearchInput } from '@/components/ui/search-input';
import { Switch } from '@/components/ui/switch';
import { useCurrentUser } from '@/features/auth/api/me';
import { useCreditNotes } from '@/features/invoices/api/get-credit-notes';
import { useCustomerOptions } from '@/features/invoices/api/get-customer-options';
import { useInvoices } from '@/features/invoices/api/get-invoices';
import { InvoicesTable } from '@/features/invoices/components/invoices-table';
import { countLabel } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';

// The credit-note words come with their request schemas (zod): the Type filter and the credit-note table load
// right after the screen paints, so the invoice list paints without them.
const DocumentTypeFilter = lazy(() =>
  import('@/features/invoices/components/document-type-filter').then((module) => ({
    default: module.DocumentTypeFilter,
  })),
);
const CreditNotesTable = lazy(() =>
  import('@/features/invoices/components/credit-notes-table').then((module) => ({ default: module.CreditNotesTable })),
);

// Dialogs load the first time they open (docs/decisions/017-performance.md).
const InvoiceDetailDialog = lazyWhen(
  () => import('@/features/invoices/components/invoice-detail-dialog').then((module) => module.InvoiceDetailDialog),
  (props) => props.invoiceId !== null,
);
const RecordPaymentDialog = lazyWhen(
  () => import('@/features/invoices/components/record-payment-dialog').then((module) => module.RecordPaymentDialog),
  (props) => props.invoice !== null,
);
const VoidInvoiceDialog = lazyWhen(
  () => import('@/features/invoices/components/void-invoice-dialog').then((module) => module.VoidInvoiceDialog),
  (props) => props.invoice !== null,
);

// The filters paint without the Radix select, which loads when one is first used (lazy-select.tsx): it keeps this
// screen's first load within its budget (docs/performance.md, "Client weight").
const STATUS_OPTIONS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All statuses' },
  ...INVOICE_STATUSES.map((s) => ({ value: s, label: INVOICE_STATUS_LABELS[s] })),
];

const PAGE_SIZE = 20;
const ALL_CUSTOMERS = 'all';
type StatusFilter = InvoiceStatus | 'all';

/**
 * Finance's Invoices screen: search, filters, record payments, void, PDFs; with the Type filter (kept in the
 * address, ?type=credit_notes) the credit notes issued on the invoices instead.
 */
export default function InvoicesPage() {
  const { user } = useCurrentUser();
  const canRead = can(user, 'invoice:read:any');
  const canManage = can(user, 'invoice:manage');
  const [params, setParams] = useSearchParams();
  const type: InvoiceDocumentType = params.get('type') === 'credit_notes' ? 'credit_notes' : 'invoices';
  const creditNotes = type === 'credit_notes';
  const setType = (next: InvoiceDocumentType) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === 'invoices') updated.delete('type');
        else updated.set('type', next);
        return updated;
      },
      { replace: true },
    );
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<StatusFilter>('all');
  // The overdue filter lives in the address, so the Reports screen's alert can link to it (?overdue=true).
  const overdue = params.get('overdue') === 'true';
  const setOverdue = (next: boolean) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next) updated.set('overdue', 'true');
        else updated.delete('overdue');
        return updated;
      },
      { replace: true },
    );
  const [customerId, setCustomerId] = useState(ALL_CUSTOMERS);
  const [month, setMonth] = useState('');
  const [page, setPage] = useState(0);
  const [viewing, setViewing] = useState<string | null>(null);
  const [paying, setPaying] = useState<InvoiceSummary | null>(null);
  const [voiding, setVoiding] = useState<InvoiceSummary | null>(null);
  const customers = useCustomerOptions({ enabled: canRead });
  const customerOptions = [
    { value: ALL_CUSTOMERS, label: 'All customers' },
    ...(customers.data ?? []).map((c) => ({ value: c.id, label: c.name })),
  ];
  const filter = {
    q,
    status,
    overdue,
    customerId: customerId === ALL_CUSTOMERS ? undefined : customerId,
    month: /^\d{4}-\d{2}$/.test(month) ? month : undefined,
    page,
    pageSize: PAGE_SIZE,
  };
  const { data, isLoading, isFetching, error } = useInvoices(filter, { enabled: canRead && !creditNotes });
  const notes = useCreditNotes(
    { q, customerId: filter.customerId, page, pageSize: PAGE_SIZE },
    { enabled: canRead && creditNotes },
  );

  // A new search, filter or type starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the search or a filter changes
  useEffect(() => setPage(0), [q, status, overdue, customerId, month, type]);

  if (!canRead) return <AccessDenied message="You don't have permission to view invoices" />;

  const total = creditNotes ? notes.data?.total : data?.total;
  const more = creditNotes ? notes.data?.totalIsLowerBound : data?.totalIsLowerBound;
  const pages = total === undefined ? 1 : Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = creditNotes
    ? q !== '' || customerId !== ALL_CUSTOMERS
    : q !== '' || status !== 'all' || overdue || customerId !== ALL_CUSTOMERS || month !== '';
  const clear = () => {
    setSearch('');
    setStatus('all');
    setOverdue(false);
    setCustomerId(ALL_CUSTOMERS);
    setMonth('');
  };

  return (
    <>
      <PageHeader
        title="Invoices"
        description="Every invoice the billing run issued: record check and wire payments, void or refund, download PDFs."
      />

      <div className="mb-4 grid gap-3 md:grid-cols-2 xl:flex xl:flex-wrap xl:items-end">
        <SearchInput
          id="invoice-search"
          label={creditNotes ? 'Search credit notes' : 'Search invoices'}
          placeholder={
            creditNotes
              ? 'Search by credit note or invoice number, or customer'
              : 'Search by invoice number or customer'
          }
          value={search}
          onChange={setSearch}
          className="sm:max-w-none xl:max-w-xs"
        />
        <Suspense
          fallback={
            <div className="grid gap-1 xl:w-40">
              <span className="text-xs font-medium text-muted-foreground">Type</span>
              <Skeleton className="h-9" />
            </div>
          }
        >
          <DocumentTypeFilter value={type} onChange={setType} />
        </Suspense>
        <div className={creditNotes ? 'hidden' : 'grid gap-1 xl:w-40'}>
          <Label htmlFor="invoice-status-filter" className="text-xs text-muted-foreground">
            Status
          </Label>
          <LazySelect
            id="invoice-status-filter"
            aria-label="Filter by status"
            value={status}
            onValueChange={(value) => setStatus(value as StatusFilter)}
            placeholder="All statuses"
            display={STATUS_OPTIONS.find((option) => option.value === status)?.label}
            options={STATUS_OPTIONS}
          />
        </div>
        <div className="grid gap-1 xl:w-56">
          <Label htmlFor="invoice-customer-filter" className="text-xs text-muted-foreground">
            Customer
          </Label>
          <LazySelect
            id="invoice-customer-filter"
            aria-label="Filter by customer"
            value={customerId}
            onValueChange={setCustomerId}
            placeholder="All customers"
            display={customerOptions.find((option) => option.value === customerId)?.label}
            options={customerOptions}
          />
        </div>
        <div className={creditNotes ? 'hidden' : 'grid gap-1 xl:w-44'}>
          <Label htmlFor="invoice-period-filter" className="text-xs text-muted-foreground">
            Period starting in
          </Label>
          <Input id="invoice-period-filter" type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
        </div>
        <div className={creditNotes ? 'hidden' : 'flex h-9 items-center gap-2 xl:px-1'}>
          <Switch id="invoice-overdue-filter" checked={overdue} onCheckedChange={setOverdue} />
          <Label htmlFor="invoice-overdue-filter">Overdue only</Label>
        </div>
        {filtered && (
          <Button variant="ghost" onClick={clear} className="justify-self-start">
            <X aria-hidden /> Clear filters
          </Button>
        )}
      </div>

      {creditNotes ? (
        <>
          <h2
            className="mb-3 text-base font-semibold text-slate-900"
            aria-live="polite"
            data-testid="credit-notes-count"
          >
            {notes.data
              ? countLabel(notes.data.total, notes.data.totalIsLowerBound, 'credit note', 'credit notes')
              : 'Loading credit notes...'}
          </h2>
          {notes.error && !notes.data ? (
            <ErrorState title="Could not load credit notes">Reload the page to try again.</ErrorState>
          ) : (
            <>
              <Suspense fallback={<Skeleton className="h-64 rounded-xl" />}>
                <CreditNotesTable
                  rows={notes.data?.rows ?? []}
                  loading={!notes.data}
                  busy={notes.isFetching && !notes.isLoading}
                  empty={
                    <EmptyState icon={<ReceiptText />} title="No credit notes found">
                      {filtered
                        ? 'Try another search or filter.'
                        : 'Credit notes appear here when an invoice is credited or voided.'}
                    </EmptyState>
                  }
                  onViewInvoice={setViewing}
                />
              </Suspense>
              {notes.data?.rows.length !== 0 && (
                <Pagination page={page} pages={pages} more={more} onPageChange={setPage} className="mt-4" />
              )}
            </>
          )}
        </>
      ) : (
        <>
          <h2 className="mb-3 text-base font-semibold text-slate-900" aria-live="polite" data-testid="invoices-count">
            {data
              ? `${countLabel(data.total, data.totalIsLowerBound, 'invoice', 'invoices')}${overdue ? ' overdue' : ''}`
              : 'Loading invoices...'}
          </h2>
          {error && !data ? (
            <ErrorState title="Could not load invoices">Reload the page to try again.</ErrorState>
          ) : (
            <>
              <InvoicesTable
                rows={data?.rows ?? []}
                loading={!data}
                busy={isFetching && !isLoading}
                empty={
                  <EmptyState icon={<Receipt />} title="No invoices found">
                    {filtered
                      ? 'Try another search or filter.'
                      : 'Invoices appear here once active contracts are billed.'}
                  </EmptyState>
                }
                actions={{
                  onView: (invoice) => setViewing(invoice.id),
                  onRecordPayment: canManage ? setPaying : undefined,
                  onVoid: canManage ? setVoiding : undefined,
                }}
              />
              {data?.rows.length !== 0 && (
                <Pagination page={page} pages={pages} more={more} onPageChange={setPage} className="mt-4" />
              )}
            </>
          )}
        </>
      )}

      <InvoiceDetailDialog invoiceId={viewing} onClose={() => setViewing(null)} />
      {canManage && <RecordPaymentDialog invoice={paying} onClose={() => setPaying(null)} />}
      {canManage && <VoidInvoiceDialog invoice={voiding} onClose={() => setVoiding(null)} />}
    </>
  );
}
