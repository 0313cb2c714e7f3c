import type { Contract } from '@shared/contracts/contract-responses';
import { CalendarClock } from 'lucide-react';
import { formatDate } from '@/lib/format';

/**
 * Under a sent contract with inventory lines: how long its slots stay held for it (product.md section 13),
 * or that the hold ended and the slots are for sale again.
 */
export function InventoryHoldNote({ contract }: { contract: Pick<Contract, 'inventoryHoldUntil'> }) {
  if (!contract.inventoryHoldUntil) return null;
  const until = new Date(contract.inventoryHoldUntil);
  const time = until.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  const when = `${formatDate(contract.inventoryHoldUntil)}, ${time}`;
  const running = until.getTime() > Date.now();
  return (
    <p
      className={
        running
          ? 'flex items-start gap-2 text-sm text-muted-foreground'
          : 'flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900'
      }
      data-testid="inventory-hold"
    >
      <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden />
      {running
        ? `Its inventory slots are held until ${when}.`
        : `The hold on its inventory slots ended ${when}: they are for sale again, and activating it takes them again if they are still free.`}
    </p>
  );
}
