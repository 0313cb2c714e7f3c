import {
  IO_MESSAGES,
  type IoGoneResponse,
  ioAcceptSchema,
  ioDeclineSchema,
  type PublicInsertionOrder,
} from '@shared/contracts/insertion-orders';
import { CheckCircle2, Download, FileText, FileX2, History } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDate, formatMoney } from '@/lib/format';
import { useAcceptInsertionOrder } from '../api/accept-insertion-order';
import { useDeclineInsertionOrder } from '../api/decline-insertion-order';
import { useInsertionOrder } from '../api/get-insertion-order';

const cardClass = 'rounded-2xl border bg-white shadow-sm';

/** "Signed by <name> on <date>, version N": the line every screen shows for an accepted insertion order. */
export const signedLine = (io: { signerName: string | null; acceptedAt: string | null; version: number }) =>
  `Signed by ${io.signerName} on ${formatDate(io.acceptedAt)}, version ${io.version}`;

/**
 * The insertion order step (product.md section 15): the IO's PDF inline with its key figures, "I agree to these
 * terms", the signer's full name and Accept, or Decline with a reason. One component for the public IO page, the
 * pay-link page (before the card form) and the client portal. `onAccepted` runs once the version is accepted
 * (the pay page then moves on to payment).
 */
export function InsertionOrderStep({
  token,
  onAccepted,
  headingLevel = 'h2',
}: {
  token: string;
  onAccepted?: (io: PublicInsertionOrder) => void;
  headingLevel?: 'h1' | 'h2';
}) {
  const query = useInsertionOrder(token);
  if (query.isLoading) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <span className="sr-only" role="status">
          Loading the insertion order
        </span>
        <Skeleton className="h-24 rounded-2xl" />
        <Skeleton className="h-96 rounded-2xl" />
      </div>
    );
  }
  if (query.error || !query.data) return <IoUnavailable error={query.error} />;
  return <IoReview io={query.data} token={token} onAccepted={onAccepted} headingLevel={headingLevel} />;
}

function IoUnavailable({ error }: { error: unknown }) {
  const gone = error instanceof ApiError && error.status === 410 ? (error.body as Partial<IoGoneResponse>) : null;
  if (gone) {
    return (
      <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="io-gone-heading">
        <h2 id="io-gone-heading" className="flex items-center gap-2 font-semibold text-slate-900">
          <History className="size-5 text-amber-600" aria-hidden /> A newer version of this insertion order was sent
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          {gone.message ?? 'This version was replaced.'}{' '}
          {gone.latestUrl ? 'Review the newest version instead.' : 'We will e-mail you the new version.'}
        </p>
        {gone.latestUrl && (
          <Button asChild className="mt-4">
            <a href={gone.latestUrl}>Open version {gone.latestVersion}</a>
          </Button>
        )}
      </section>
    );
  }
  const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
  return (
    <section className={`${cardClass} p-5 sm:p-6`} role="alert">
      <h2 className="flex items-center gap-2 font-semibold text-slate-900">
        <FileX2 className="size-5 text-red-600" aria-hidden />
        {missing ? 'This insertion order link is not valid' : 'The insertion order could not be loaded'}
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        {missing
          ? 'Check that you opened the whole link from your e-mail, or ask us for a new one.'
          : errorMessage(error, 'Reload the page to try again.')}
      </p>
    </section>
  );
}

function IoReview({
  io,
  token,
  onAccepted,
  headingLevel,
}: {
  io: PublicInsertionOrder;
  token: string;
  onAccepted?: (io: PublicInsertionOrder) => void;
  headingLevel: 'h1' | 'h2';
}) {
  const Heading = headingLevel;
  const { figures } = io;
  return (
    <div className="grid gap-5">
      <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="io-heading">
        <p className="text-sm text-muted-foreground">
          Insertion order · version {io.version} · sent {formatDate(io.sentAt)}
        </p>
        <Heading id="io-heading" className="mt-1 text-xl font-semibold text-slate-900 sm:text-2xl">
          {figures.title || 'Your advertising agreement'}
        </Heading>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          {figures.advertiserName ? (
            <>
              <IoFact label="Advertiser">{figures.advertiserName}</IoFact>
              <IoFact label="Billed to">{figures.customerName}</IoFact>
            </>
          ) : (
            <IoFact label="Customer">{figures.customerName}</IoFact>
          )}
          <IoFact label="Starts">{formatDate(figures.startDate)}</IoFact>
          <IoFact label="Term">
            {figures.termMonths ? `${figures.termMonths} months` : 'Until canceled'}
            {figures.autoStopDate && `, until ${formatDate(figures.autoStopDate)}`}
          </IoFact>
          <IoFact label="Monthly">{formatMoney(figures.monthlyAmount)}</IoFact>
          {figures.seasonalMonthlyAmount !== figures.monthlyAmount && (
            <IoFact label="In season (Oct–Dec)">{formatMoney(figures.seasonalMonthlyAmount)} a month</IoFact>
          )}
          {figures.setupFee > 0 && <IoFact label="Setup fee">{formatMoney(figures.setupFee)}</IoFact>}
          <IoFact label="First invoice">{formatMoney(figures.firstInvoiceAmount)}</IoFact>
        </dl>
      </section>

      <section className={cardClass} aria-label="Insertion order document">
        <iframe
          title={`Insertion order, version ${io.version} (PDF)`}
          src={io.pdfUrl}
          className="hidden h-[36rem] w-full rounded-t-2xl border-b sm:block"
        />
        <div className="flex flex-wrap items-center justify-between gap-3 px-5 py-3 text-sm sm:px-6">
          <span className="min-w-0 break-all text-xs text-muted-foreground">
            Document fingerprint (SHA-256) {io.contentSha256}
          </span>
          <Button asChild variant="outline" size="sm">
            <a href={io.pdfUrl} target="_blank" rel="noopener">
              <Download aria-hidden /> Download PDF
            </a>
          </Button>
        </div>
      </section>

      {io.status === 'accepted' ? (
        <IoSigned io={io} />
      ) : io.status === 'declined' ? (
        <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="io-declined-heading">
          <h2 id="io-declined-heading" className="flex items-center gap-2 font-semibold text-slate-900">
            <FileX2 className="size-5 text-red-600" aria-hidden /> You declined this insertion order
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            On {formatDate(io.declinedAt)}: “{io.declineReason}”. Your sales contact has been told and may send you a
            new version.
          </p>
        </section>
      ) : io.status === 'superseded' || io.version !== io.latestVersion ? (
        <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="io-superseded-heading">
          <h2 id="io-superseded-heading" className="flex items-center gap-2 font-semibold text-slate-900">
            <History className="size-5 text-amber-600" aria-hidden /> This insertion order was changed
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            The contract changed after this version was sent. We will e-mail you the new version to review.
          </p>
        </section>
      ) : (
        <AnswerForm token={token} onAccepted={onAccepted} />
      )}
    </div>
  );
}

function IoFact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function IoSigned({ io }: { io: PublicInsertionOrder }) {
  return (
    <section
      className={`${cardClass} border-green-200 bg-green-50/60 p-5 sm:p-6`}
      aria-labelledby="io-signed-heading"
      role="status"
    >
      <h2 id="io-signed-heading" className="flex items-center gap-2 font-semibold text-green-900">
        <CheckCircle2 className="size-5" aria-hidden /> {signedLine(io)}
      </h2>
      <p className="mt-2 text-sm text-green-900/80">
        A copy with its signing certificate was e-mailed to you.
        {io.signedPdfUrl && (
          <>
            {' '}
            <a className="font-medium underline" href={io.signedPdfUrl}>
              Download the signed PDF
            </a>
          </>
        )}
      </p>
    </section>
  );
}

type Errors = { signerName?: string; agree?: string; reason?: string };

function AnswerForm({ token, onAccepted }: { token: string; onAccepted?: (io: PublicInsertionOrder) => void }) {
  const accept = useAcceptInsertionOrder(token, onAccepted);
  const decline = useDeclineInsertionOrder(token);
  const [signerName, setSignerName] = useState('');
  const [agree, setAgree] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const agreeId = useId();
  const busy = accept.isPending || decline.isPending;

  const submitAccept = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ioAcceptSchema.safeParse({ signerName, agree: agree || undefined });
    if (!parsed.success) {
      const issues = parsed.error.flatten().fieldErrors;
      setErrors({ signerName: issues.signerName?.[0], agree: issues.agree?.[0] });
      return;
    }
    setErrors({});
    accept.mutate(parsed.data);
  };

  const submitDecline = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ioDeclineSchema.safeParse({ reason });
    if (!parsed.success) {
      setErrors({ reason: parsed.error.flatten().fieldErrors.reason?.[0] ?? IO_MESSAGES.declineReason });
      return;
    }
    setErrors({});
    decline.mutate(parsed.data);
  };

  const failure = accept.error ?? decline.error;
  return (
    <section className={cardClass} aria-labelledby="io-sign-heading">
      <div className="border-b px-5 py-4 sm:px-6">
        <h2 id="io-sign-heading" className="flex items-center gap-2 font-semibold text-slate-900">
          <FileText className="size-5 text-primary" aria-hidden /> Review and sign
        </h2>
        <p className="mt-0.5 text-sm text-muted-foreground">
          Read the insertion order above. Accepting it electronically is the same as signing it.
        </p>
      </div>
      {declining ? (
        <form className="grid gap-4 px-5 py-4 sm:px-6" onSubmit={submitDecline} noValidate>
          <FormField label="Why do you decline?" error={errors.reason}>
            <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={1000} />
          </FormField>
          {failure && <FailureNote error={failure} />}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="destructive" disabled={busy}>
              {decline.isPending ? 'Declining...' : 'Decline'}
            </Button>
            <Button type="button" variant="outline" disabled={busy} onClick={() => setDeclining(false)}>
              Back
            </Button>
          </div>
        </form>
      ) : (
        <form className="grid gap-4 px-5 py-4 sm:px-6" onSubmit={submitAccept} noValidate>
          <div className="grid gap-1.5">
            <div className="flex items-start gap-2">
              <input
                id={agreeId}
                type="checkbox"
                className="mt-0.5 size-4 rounded border-slate-300 accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                checked={agree}
                onChange={(e) => setAgree(e.target.checked)}
                aria-invalid={errors.agree ? true : undefined}
                aria-describedby={errors.agree ? `${agreeId}-error` : undefined}
              />
              <label htmlFor={agreeId} className="text-sm font-medium text-slate-800">
                I agree to these terms
              </label>
            </div>
            {errors.agree && (
              <p id={`${agreeId}-error`} role="alert" className="text-sm font-medium text-destructive">
                {errors.agree}
              </p>
            )}
          </div>
          <FormField label="Full name" error={errors.signerName} hint="As you would sign it">
            <Input
              value={signerName}
              onChange={(e) => setSignerName(e.target.value)}
              autoComplete="name"
              maxLength={100}
            />
          </FormField>
          {failure && <FailureNote error={failure} />}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" size="lg" disabled={busy}>
              {accept.isPending ? 'Accepting...' : 'Accept'}
            </Button>
            <Button type="button" variant="ghost" disabled={busy} onClick={() => setDeclining(true)}>
              Decline
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function FailureNote({ error }: { error: unknown }) {
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {errorMessage(error, 'That did not work. Please try again.')}
    </p>
  );
}
