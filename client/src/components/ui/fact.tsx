import type { ReactNode } from 'react';

/**
 * One labelled value of a record, the label in a narrow column beside it: inside a `<dl>` (a detail card's
 * facts, a table row shown as a card on a phone).
 */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_minmax(0,1fr)] gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}
