import { cn } from '@/lib/utils';
import type { PipelineView } from '../hooks/use-pipeline-params';

const VIEWS: { value: PipelineView; label: string }[] = [
  { value: 'board', label: 'Board' },
  { value: 'list', label: 'List' },
];

/** Board or List: two toggle buttons, the pressed one shown. */
export function ViewToggle({ view, onChange }: { view: PipelineView; onChange: (view: PipelineView) => void }) {
  return (
    <fieldset className="inline-flex rounded-md border bg-white p-0.5 shadow-sm">
      <legend className="sr-only">View</legend>
      {VIEWS.map(({ value, label }) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          onClick={() => onChange(value)}
          className={cn(
            'cursor-pointer rounded px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            view === value ? 'bg-primary text-primary-foreground' : 'text-muted-foreground hover:bg-muted',
          )}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}
