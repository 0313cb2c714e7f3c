import { AlertCircle } from 'lucide-react';
import { useLocation } from 'wouter';

export default function NotFoundPage() {
  const [location] = useLocation();
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <div className="w-full max-w-md rounded-xl border bg-white p-8 shadow-sm">
        <div className="mb-3 flex items-center gap-2">
          <AlertCircle className="size-7 text-destructive" aria-hidden />
          <h1 className="text-2xl font-bold">Not Found</h1>
        </div>
        <p className="text-sm text-slate-600">
          Current path: <code className="rounded bg-muted px-1">{location}</code>
        </p>
        <p className="mt-2 text-sm text-muted-foreground">Debug: Route not matching properly</p>
      </div>
    </div>
  );
}
