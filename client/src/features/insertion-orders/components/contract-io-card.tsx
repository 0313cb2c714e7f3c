import { IO_EVENT_LABELS, IO_STATUS_LABELS, type IoStatus } from '@shared/contracts/insertion-order-vocabulary';
import type { InsertionOrderVersion } from '@shared/contracts/insertion-orders';
import { CheckCircle2, Download, Search } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { formatDate } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { useContractInsertionOrders } from '../api/get-contract-insertion-orders';
import { useVerifyInsertionOrderFile } from '../api/verify-insertion-order-file';

const STATUS_TONES: Record<IoStatus, 'yellow' | 'green' | 'red' | 'grey'> = {
  sent: 'yellow',
  accepted: 'green',
  declined: 'red',
  superseded: 'grey',
};

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/** What the newest version says about the contract, in one line. */
function headline(newest: InsertionOrderVersion, versions: number): string {
  if (newest.status === 'accepted') {
    return `Signed by ${newest.signerName} on ${formatDate(newest.acceptedAt)}, version ${newest.version}`;
  }
  if (newest.status === 'declined') return `Version ${newest.version} was declined: “${newest.declineReason}”`;
  if (newest.status === 'superseded') {
    return `The contract changed since version ${newest.version} was sent: Send to Customer sends version ${newest.version + 1}`;
  }
  return `Version ${newest.version} awaits the customer's signature${versions > 1 ? ` (${versions} versions sent)` : ''}`;
}

/**
 * The contract page's insertion order card (product.md section 15): who signed which version and when, both PDFs,
 * the IO's timeline, older versions, and a check of a PDF's SHA-256 against every version sent or signed.
 */
export function ContractInsertionOrderCard({ contractId }: { contractId: string }) {
  const { data, isLoading, error } = useContractInsertionOrders(contractId);
  if (isLoading) return <Skeleton className="h-40 rounded-xl" />;
  if (error || !data) {
    return (
      <ErrorState title="Error loading the insertion order">{errorMessage(error, 'Reload to try again.')}</ErrorState>
    );
  }
  if (data.versions.length === 0) return null;
  const [newest, ...older] = [...data.versions].sort((a, b) => b.version - a.version);
  return (
    <Card aria-labelledby="io-card-title">
      <CardHeader>
        <CardTitle id="io-card-title">Insertion order</CardTitle>
        <CardDescription className={newest.status === 'accepted' ? 'font-medium text-green-800' : undefined}>
          {newest.status === 'accepted' && <CheckCircle2 className="mr-1 inline size-4 align-[-3px]" aria-hidden />}
          {headline(newest, data.versions.length)}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <VersionDetails contractId={contractId} version={newest} />
        {older.length > 0 && (
          <details className="rounded-lg border px-4 py-3">
            <summary className="cursor-pointer text-sm font-medium text-slate-800">
              Earlier versions ({older.length})
            </summary>
            <div className="mt-4 grid gap-6">
              {older.map((version) => (
                <VersionDetails key={version.id} contractId={contractId} version={version} />
              ))}
            </div>
          </details>
        )}
        <VerifyFile contractId={contractId} />
      </CardContent>
    </Card>
  );
}

function VersionDetails({ contractId, version }: { contractId: string; version: InsertionOrderVersion }) {
  const download = (path: string, name: string) =>
    downloadFile(path, { fallbackName: name }).catch((e) => toastError('Download failed', e, 'Please try again.'));
  const base = `insertion-order-${contractId.slice(-8)}-v${version.version}`;
  return (
    <section className="grid gap-3" aria-label={`Version ${version.version}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="font-medium text-slate-900">Version {version.version}</h4>
        <Badge tone={STATUS_TONES[version.status]}>{IO_STATUS_LABELS[version.status]}</Badge>
        <span className="text-sm text-muted-foreground">
          sent {formatDate(version.sentAt)} to {version.customerEmail}
          {version.sentByName && ` by ${version.sentByName}`}
        </span>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => download(version.pdfUrl, `${base}.pdf`)}>
          <Download aria-hidden /> Insertion order PDF
        </Button>
        {version.signedPdfUrl && (
          <Button variant="outline" size="sm" onClick={() => download(version.signedPdfUrl!, `${base}-signed.pdf`)}>
            <Download aria-hidden /> Signed PDF
          </Button>
        )}
      </div>
      <dl className="grid gap-1 text-xs text-muted-foreground">
        <div className="break-all">
          <dt className="inline font-medium text-slate-700">SHA-256 of the PDF: </dt>
          <dd className="inline font-mono">{version.sha256}</dd>
        </div>
        {version.signedSha256 && (
          <div className="break-all">
            <dt className="inline font-medium text-slate-700">SHA-256 of the signed PDF: </dt>
            <dd className="inline font-mono">{version.signedSha256}</dd>
          </div>
        )}
      </dl>
      <ol className="grid gap-2 border-l-2 border-slate-200 pl-4" aria-label={`Timeline of version ${version.version}`}>
        {version.events.map((event, index) => (
          <li key={`${event.type}-${event.at}-${index}`} className="text-sm">
            <span className="font-medium text-slate-900">{IO_EVENT_LABELS[event.type]}</span>
            <span className="text-muted-foreground"> · {dateTime(event.at)}</span>
            {event.actorName && <span className="text-muted-foreground"> · by {event.actorName}</span>}
            {event.detail && <span className="block text-slate-700">{event.detail}</span>}
            {(event.ip || event.userAgent) && (
              <span className="block break-all text-xs text-muted-foreground">
                {[event.ip && `IP ${event.ip}`, event.userAgent].filter(Boolean).join(' · ')}
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function VerifyFile({ contractId }: { contractId: string }) {
  const verify = useVerifyInsertionOrderFile(contractId);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [fileName, setFileName] = useState<string | null>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setFileName(file.name);
    verify.mutate(file);
  };
  const result = verify.data;
  return (
    <section className="grid gap-2 rounded-lg bg-slate-50 px-4 py-3" aria-labelledby={`${inputId}-title`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h4 id={`${inputId}-title`} className="font-medium text-slate-900">
            Verify a file
          </h4>
          <p className="text-xs text-muted-foreground">
            Check whether a PDF is exactly a version of this insertion order, as sent or as signed.
          </p>
        </div>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="application/pdf,.pdf"
          className="sr-only"
          onChange={onChange}
          aria-label="PDF to verify"
        />
        <Button variant="outline" size="sm" disabled={verify.isPending} onClick={() => inputRef.current?.click()}>
          <Search aria-hidden /> {verify.isPending ? 'Checking...' : 'Choose a PDF'}
        </Button>
      </div>
      <div aria-live="polite">
        {verify.isError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {errorMessage(verify.error, 'The file could not be checked.')}
          </p>
        )}
        {result && (
          <div className="grid gap-1 text-sm" data-testid="io-verify-result">
            <p className={result.match ? 'font-medium text-green-800' : 'font-medium text-red-700'}>
              {result.match
                ? `Matches version ${result.match.version} as ${result.match.kind}`
                : 'Does not match any version of this contract'}
              {fileName && <span className="font-normal text-muted-foreground"> ({fileName})</span>}
            </p>
            <p className="break-all font-mono text-xs text-muted-foreground">SHA-256 {result.sha256}</p>
          </div>
        )}
      </div>
    </section>
  );
}
