import { staffNextStepDetail, staffNextStepTitle } from '@shared/contracts/contract-next-step';
import type { Contract } from '@shared/contracts/contract-responses';
import { ArrowRight } from 'lucide-react';
import { formatDate } from '@/lib/format';

/**
 * Under a sent contract whose insertion order is signed (or that has none): what it waits for (product.md section
 * 17), "Signed, waiting for first payment" or "Signed, ready to activate", and who does what next.
 */
export function NextStepNote({ contract }: { contract: Pick<Contract, 'nextStep'> }) {
  const step = contract.nextStep;
  if (!step) return null;
  return (
    <div
      className="flex max-w-2xl items-start gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-950"
      data-testid="contract-next-step"
    >
      <ArrowRight className="mt-0.5 size-4 shrink-0 text-indigo-700" aria-hidden />
      <p>
        <span className="font-semibold">{staffNextStepTitle(step)}</span>
        <span className="block text-indigo-900/80">{staffNextStepDetail(step, formatDate)}</span>
      </p>
    </div>
  );
}
