import { Skeleton } from '@/components/ui/feedback';

/** Placeholder columns while the stages and their figures load. */
export function BoardSkeleton() {
  return (
    <div className="flex gap-3 overflow-hidden pb-4" aria-busy="true" data-testid="pipeline-board-loading">
      <span className="sr-only">Loading the pipeline</span>
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="grid w-[17rem] shrink-0 content-start gap-3 rounded-xl border bg-slate-50 p-3">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-3 w-32" />
          <Skeleton className="h-24 rounded-lg" />
          <Skeleton className="h-24 rounded-lg" />
        </div>
      ))}
    </div>
  );
}
