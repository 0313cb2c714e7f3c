import type { UseQueryResult } from '@tanstack/react-query';
import { LinkIcon, Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';

/** The frame of the public payment pages: the business's name, a secure-payment note, and the page. */
export function PublicPaymentShell({
  businessName,
  children,
  wide = false,
  loading = false,
}: {
  businessName?: string;
  children: ReactNode;
  wide?: boolean;
  /** The business's name is on its way: a placeholder holds its place. */
  loading?: boolean;
}) {
  return (
    <div className="min-h-screen bg-gradient-to-b from-slate-100 to-slate-50">
      <header className="border-b bg-white/80">
        <div
          className={cn('mx-auto flex items-center justify-between gap-3 px-4 py-3', wide ? 'max-w-4xl' : 'max-w-2xl')}
        >
          <div className="flex min-w-0 items-center gap-2.5">
            {businessName ? (
              <>
                <span
                  aria-hidden
                  className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-sm font-semibold text-white"
                >
                  {monogram(businessName)}
                </span>
                <span className="truncate font-semibold text-slate-900">{businessName}</span>
              </>
            ) : loading ? (
              <span className="h-5 w-32 animate-pulse rounded bg-slate-200" aria-hidden />
            ) : null}
          </div>
          <span className="flex shrink-0 items-center gap-1.5 text-xs font-medium text-slate-500">
            <Lock className="size-3.5" aria-hidden /> Secure payment
          </span>
        </div>
      </header>
      <main className={cn('mx-auto px-4 py-6 sm:py-10', wide ? 'max-w-4xl' : 'max-w-2xl')}>{children}</main>
    </div>
  );
}

function monogram(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? `${words[0][0]}${words[1][0]}` : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

/** A full-width message card for the public pages (invalid link, nothing due, expired checkout). */
export function PublicMessage({
  icon,
  title,
  children,
  tone = 'neutral',
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  tone?: 'neutral' | 'success' | 'danger';
}) {
  const toneClass = {
    neutral: 'bg-slate-100 text-slate-600',
    success: 'bg-green-100 text-green-700',
    danger: 'bg-red-100 text-red-700',
  }[tone];
  return (
    <div className="rounded-2xl border bg-white px-6 py-10 text-center shadow-sm">
      <div
        className={cn('mx-auto mb-4 flex size-12 items-center justify-center rounded-full [&_svg]:size-6', toneClass)}
      >
        {icon}
      </div>
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      {children && <div className="mx-auto mt-2 max-w-md text-sm text-muted-foreground">{children}</div>}
    </div>
  );
}

/**
 * One public payment page (a pay link, a checkout) around the query that loads it: a skeleton of the page's
 * cards while it loads, a message when the link is unknown (404) or the page could not be loaded, and the
 * page itself in the business's frame once it has arrived.
 */
export function PublicPaymentPage<T extends { business: { name: string } }>({
  query,
  wide = false,
  skeleton,
  invalid,
  children,
}: {
  query: UseQueryResult<T>;
  wide?: boolean;
  /** The loading placeholders, laid out as the page will be. */
  skeleton: ReactNode;
  /** What an unknown or used-up link says: a title and what to do. */
  invalid: { title: string; hint: string };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <PublicPaymentShell wide={wide} loading>
        {skeleton}
      </PublicPaymentShell>
    );
  }
  if (query.isError) {
    const unknownLink = query.error instanceof ApiError && query.error.status === 404;
    return (
      <PublicPaymentShell>
        <PublicMessage
          icon={<LinkIcon aria-hidden />}
          title={unknownLink ? invalid.title : 'This page could not be loaded'}
          tone={unknownLink ? 'danger' : 'neutral'}
        >
          {unknownLink ? invalid.hint : errorMessage(query.error, 'Please try again in a moment.')}
        </PublicMessage>
      </PublicPaymentShell>
    );
  }
  return (
    <PublicPaymentShell businessName={query.data.business.name} wide={wide}>
      {children(query.data)}
    </PublicPaymentShell>
  );
}
