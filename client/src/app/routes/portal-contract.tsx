import type { ClientContractDetail } from '@shared/contracts/client-portal';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { can } from '@shared/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, FileText, Wallet } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link, useParams } from 'wouter';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Fact } from '@/components/ui/fact';
import { AccessDenied, ErrorState, Skeleton } from '@/components/ui/feedback';
import { useCurrentUser } from '@/features/auth/api/me';
import { ContractStatusBadge } from '@/features/contracts/components/contract-status-badge';
import { termLabel } from '@/features/contracts/lib/format';
import { useContractCreatives } from '@/features/creatives/api/get-contract-creatives';
import { CreativeItems } from '@/features/creatives/components/creative-items';
import { CreditNotePdfButton } from '@/features/invoices/components/credit-note-pdf-button';
import { PdfButton } from '@/features/invoices/components/pdf-button';
import { ReceiptButton } from '@/features/invoices/components/receipt-button';
import { useClientContract } from '@/features/portal/api/get-client-contract';
import { useClientContractCreditNotes } from '@/features/portal/api/get-client-contract-credit-notes';
import { useClientContractInvoices } from '@/features/portal/api/get-client-contract-invoices';
import { ClientContractInvoices } from '@/features/portal/components/client-contract-invoices';
import { ClientContractLines } from '@/features/portal/components/client-contract-lines';
import { ClientContractSchedule } from '@/features/portal/components/client-contract-schedule';
import { ClientNextStep } from '@/features/portal/components/client-next-step';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { ClientInvoiceActions } from '../client-invoice-actions';
import { ClientPaymentAlerts } from '../client-payment-alerts';

// The insertion order step loads for a contract that has one to sign only.
const InsertionOrderStep = lazy(() =>
  import('@/features/insertion-orders/components/io-review').then((m) => ({ default: m.InsertionOrderStep })),
);

// The delivery card loads after the contract has painted, for contracts with a CPM line only.
const DeliveryCard = lazy(() =>
  import('@/features/delivery/components/delivery-card').then((m) => ({ default: m.DeliveryCard })),
);

const backLink = (
  <Link
    href={paths.portal}
    className="mb-4 inline-flex items-center gap-1 rounded text-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
  >
    <ArrowLeft className="size-4" aria-hidden /> Back to the portal
  </Link>
);

/** ui-spec's name of a client's contract: its title, or "Contract #" and the last 6 characters of its id. */
const contractName = (contract: { id: string; title: string | null }) =>
  contract.title || `Contract #${shortContractId(contract.id, 6)}`;

/**
 * A client's own contract (client accounts only; another customer's answers 404): what it bought (lines, flights,
 * in-season prices), what is overdue and paused with Pay Now, the upcoming invoices from the billing engine, its
 * invoices with Pay Now and the PDF, its delivery as our team recorded it, and its documents.
 */
export default function PortalContractPage() {
  const { id } = useParams<{ id: string }>();
  const { user } = useCurrentUser();
  if (!can(user, 'portal:access')) return <AccessDenied message="This portal is only available for client accounts" />;
  return <ClientContractPage id={id} />;
}

function ClientContractPage({ id }: { id: string }) {
  const { data: contract, isLoading, error } = useClientContract(id);
  const queryClient = useQueryClient();
  if (isLoading) {
    return (
      <>
        {backLink}
        <Skeleton className="mb-6 h-9 w-72" />
        <div className="grid gap-6">
          <Skeleton className="h-40 rounded-xl" />
          <Skeleton className="h-64 rounded-xl" />
        </div>
      </>
    );
  }
  if (error || !contract) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <>
        {backLink}
        <ErrorState title={missing ? 'Contract not found' : 'Error loading contract'}>
          {missing ? 'It is not one of your contracts, or it no longer exists.' : 'Reload the page to try again.'}
        </ErrorState>
      </>
    );
  }
  const hasCpm = contract.lineItems.some((line) => line.priceMetric === 'cpm');
  return (
    <>
      {backLink}
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{contractName(contract)}</h1>
            <ContractStatusBadge status={contract.status} className="text-sm" />
          </div>
          <p className="text-sm text-muted-foreground">
            {[
              contract.title ? `Contract #${shortContractId(contract.id, 6)}` : null,
              `Starts ${formatDate(contract.startDate)}`,
              termLabel(contract.termMonths),
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {contract.description && <p className="max-w-2xl text-sm text-slate-700">{contract.description}</p>}
        </div>
        {contract.paymentMode === 'portal' && <ManagePaymentLink />}
      </div>

      {contract.insertionOrder && contract.status === 'sent' && (
        <section className="mb-6" aria-label="Insertion order">
          <Suspense fallback={<Skeleton className="h-64 rounded-xl" />}>
            <InsertionOrderStep
              token={contract.insertionOrder.token}
              onAccepted={() => queryClient.invalidateQueries({ queryKey: ['/api/client/contracts'] })}
            />
          </Suspense>
        </section>
      )}

      {/* After the signed insertion order (or in its place for a contract sent without one): what happens next. */}
      <ClientNextStep step={contract.nextStep} className="mb-6" />

      <ClientPaymentAlerts
        className="mb-6"
        linkContracts={false}
        alerts={{
          ...contract,
          pausedForNonPayment:
            contract.status === 'paused' && contract.pauseReason === 'non_payment'
              ? [{ id: contract.id, title: contract.title }]
              : [],
        }}
      />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <ClientContractLines contract={contract} />
        <Summary contract={contract} />
      </div>
      <div className="mt-6 grid gap-6">
        <ClientContractSchedule contractId={contract.id} />
        <ClientContractInvoices
          contractId={contract.id}
          actions={(invoice) => (
            <>
              <ClientInvoiceActions invoice={invoice} />
              {invoice.amountPaid > 0 && <InvoiceReceiptButton invoice={invoice} />}
            </>
          )}
        />
        {hasCpm && (
          <Suspense fallback={<Skeleton className="h-40 rounded-xl" />}>
            <DeliveryCard
              contract={{
                id: contract.id,
                underDeliveryRemedy: contract.underDeliveryRemedy,
                lineItems: contract.lineItems.map((line) => ({ ...line, product: { name: line.name } })),
              }}
              canWrite={false}
            />
          </Suspense>
        )}
        <Documents contractId={contract.id} />
      </div>
    </>
  );
}

function Summary({ contract }: { contract: ClientContractDetail }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Billing</CardTitle>
        <CardDescription>
          {contract.paymentMode === 'portal' ? 'Paid in this portal' : 'Paid through the payment link we e-mail you'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2 text-sm">
          <Fact label="Monthly">{formatMoney(contract.monthlyAmount)}</Fact>
          {contract.seasonalMonthlyAmount !== contract.monthlyAmount && (
            <Fact label="In season">{formatMoney(contract.seasonalMonthlyAmount)} a month (Oct–Dec)</Fact>
          )}
          {contract.setupFee > 0 && <Fact label="Setup fee">{formatMoney(contract.setupFee)}</Fact>}
          <Fact label="First invoice">
            {formatMoney(contract.firstInvoiceAmount)}, due {formatDate(contract.firstInvoiceDueDate)}
          </Fact>
          <Fact label="Term">
            {termLabel(contract.termMonths)}
            {contract.autoStopDate && `, until ${formatDate(contract.autoStopDate)}`}
          </Fact>
          {contract.termValue !== null && <Fact label="Term value">{formatMoney(contract.termValue)} before tax</Fact>}
          <Fact label="Overdue">
            {contract.overdueCount > 0 ? (
              <span className="font-medium text-red-700">{formatMoney(contract.overdueAmount)}</span>
            ) : (
              'Nothing'
            )}
          </Fact>
        </dl>
      </CardContent>
    </Card>
  );
}

/** Manage payment details: the portal's page of the client's payment methods on file and its autopay. */
function ManagePaymentLink() {
  return (
    <Link href={paths.paymentMethods} className={buttonVariants({ variant: 'outline' })}>
      <Wallet aria-hidden /> Manage payment details
    </Link>
  );
}

/** Its documents: the invoices' and credit notes' PDFs, and the creatives uploaded for it. */
function Documents({ contractId }: { contractId: string }) {
  const invoices = useClientContractInvoices(contractId, 0);
  const notes = useClientContractCreditNotes(contractId);
  const creatives = useContractCreatives(contractId);
  const loading = invoices.isLoading || notes.isLoading || creatives.isLoading;
  const failed =
    (invoices.error && !invoices.data) || (notes.error && !notes.data) || (creatives.error && !creatives.data);
  const invoiceRows = invoices.data?.rows ?? [];
  const noteRows = notes.data?.rows ?? [];
  const creativeRows = creatives.data?.rows ?? [];
  return (
    <Card className="min-w-0" data-testid="client-contract-documents">
      <CardHeader>
        <CardTitle>Documents</CardTitle>
        <CardDescription>
          Invoices, their receipts and credit notes as PDF, and the creatives you uploaded
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {loading && <Skeleton className="h-20 rounded-lg" />}
        {failed && <ErrorState title="Could not load every document">Reload the page to try again.</ErrorState>}
        {!loading && (
          <>
            <DocumentGroup title="Invoices" empty="No invoices yet">
              {invoiceRows.map((invoice) => (
                <li key={invoice.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium text-slate-900">{invoice.number}</span>
                    <span className="block text-xs text-muted-foreground">{formatDate(invoice.periodStart)}</span>
                  </span>
                  <span className="flex flex-wrap justify-end gap-2">
                    <PdfButton invoice={invoice} />
                    {invoice.amountPaid > 0 && <InvoiceReceiptButton invoice={invoice} />}
                  </span>
                </li>
              ))}
            </DocumentGroup>
            <DocumentGroup title="Credit notes" empty="No credit notes">
              {noteRows.map((note) => (
                <li key={note.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium text-slate-900">{note.number}</span>
                    <span className="block text-xs text-muted-foreground">
                      {formatMoney(note.amount)} on {note.invoiceNumber}
                    </span>
                  </span>
                  <CreditNotePdfButton note={note} />
                </li>
              ))}
            </DocumentGroup>
            <div>
              <h3 className="mb-2 text-sm font-semibold text-slate-900">Creatives</h3>
              {creativeRows.length > 0 ? (
                <CreativeItems creatives={creativeRows} label="Creatives of this contract" />
              ) : (
                <p className="flex items-center gap-2 text-sm text-muted-foreground">
                  <FileText className="size-4" aria-hidden /> None uploaded yet: upload them on the portal.
                </p>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The receipt of the invoice's latest payment (the same PDF as the payer's success page offers). */
function InvoiceReceiptButton({ invoice }: { invoice: { id: string; number: string } }) {
  return <ReceiptButton receipt={{ invoiceId: invoice.id, invoiceNumber: invoice.number }} />;
}

function DocumentGroup({ title, empty, children }: { title: string; empty: string; children: ReactNode[] }) {
  return (
    <div>
      <h3 className="mb-1 text-sm font-semibold text-slate-900">{title}</h3>
      {children.length > 0 ? (
        <ul className="divide-y" aria-label={title}>
          {children}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{empty}</p>
      )}
    </div>
  );
}
