import { ShieldAlert } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

// The spinners live in spinner.tsx (the first screen shows one before tailwind-merge is needed).
export { FullPageSpinner, Spinner } from './spinner';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-slate-200/70', className)} {...props} />;
}

/** A grid of placeholder cards while a card list loads. */
export function CardGridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} className="h-40 rounded-xl" />
      ))}
    </div>
  );
}

export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed bg-white px-6 py-14 text-center">
      {icon && <div className="mb-3 text-muted-foreground [&_svg]:size-10">{icon}</div>}
      <p className="font-medium text-slate-800">{title}</p>
      {children && <div className="mt-1 text-sm text-muted-foreground">{children}</div>}
    </div>
  );
}

/** The Access Denied screen: the heading and the screen's own sentence (ui-spec section 2). */
export function AccessDenied({ message }: { message: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <div className="max-w-md rounded-xl border bg-white p-8 text-center shadow-sm">
        <ShieldAlert className="mx-auto mb-3 size-10 text-destructive" aria-hidden />
        <h1 className="text-xl font-semibold">Access Denied</h1>
        <p className="mt-2 text-muted-foreground">{message}</p>
      </div>
    </div>
  );
}

export function ErrorState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-800">
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1 text-sm">{children}</div>}
    </div>
  );
}
