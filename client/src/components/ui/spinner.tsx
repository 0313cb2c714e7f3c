import { Loader2 } from 'lucide-react';

/** Shown while a screen or its data loads. Needs no tailwind-merge: it is on screen before anything else. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className={className ? `inline-flex ${className}` : 'inline-flex'}>
      <Loader2 className="size-6 animate-spin text-primary" aria-hidden />
    </span>
  );
}

export function FullPageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner className="scale-150" />
    </div>
  );
}
