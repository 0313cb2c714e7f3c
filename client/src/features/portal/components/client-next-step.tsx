import { type ContractNextStep, clientNextStepDetail, clientNextStepTitle } from '@shared/contracts/contract-next-step';
import { CalendarCheck } from 'lucide-react';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * What happens next with a sent contract once the client signed its insertion order, or when it has none (product.md
 * section 17): "Signed — your first invoice is issued on Dec 15, 2026", and how it is paid.
 */
export function ClientNextStep({ step, className }: { step: ContractNextStep | null; className?: string }) {
  if (!step) return null;
  return (
    <section
      aria-labelledby="next-step-heading"
      className={cn('rounded-2xl border border-green-200 bg-green-50/70 p-5 shadow-sm sm:p-6', className)}
      data-testid="client-next-step"
    >
      <h2 id="next-step-heading" className="flex items-start gap-2 font-semibold text-green-950">
        <CalendarCheck className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden />
        {clientNextStepTitle(step, formatDate)}
      </h2>
      <p className="mt-1.5 text-sm text-green-950/80 sm:pl-7">{clientNextStepDetail(step)}</p>
    </section>
  );
}
