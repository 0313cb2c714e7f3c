import type { Contract } from '@shared/contracts/contract-responses';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { renewRefusal } from '@shared/contracts/renewal-vocabulary';
import { RotateCw } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';
import { useRenewContract } from '../api/renew-contract';

const linkClass =
  'rounded font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** "Renewal of <short id>" and "Renewed by <short id>" (product.md section 15), when the contract has them. */
export function RenewalLinks({ contract }: { contract: Pick<Contract, 'renewalOfId' | 'renewedBy'> }) {
  if (!contract.renewalOfId && !contract.renewedBy) return null;
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground" data-testid="renewal-links">
      {contract.renewalOfId && (
        <span>
          Renewal of{' '}
          <Link href={paths.contract(contract.renewalOfId)} className={linkClass}>
            {shortContractId(contract.renewalOfId, 6)}
          </Link>
        </span>
      )}
      {contract.renewedBy && (
        <span>
          Renewed by{' '}
          <Link href={paths.contract(contract.renewedBy.id)} className={linkClass}>
            {shortContractId(contract.renewedBy.id, 6)}
          </Link>
        </span>
      )}
    </p>
  );
}

/** "Renew": a draft from the contract's end date, opened for editing; shown on a contract that can be renewed. */
export function RenewButton({ contract }: { contract: Contract }) {
  const [, navigate] = useLocation();
  const renew = useRenewContract((renewal) => navigate(paths.editContract(renewal.id)));
  if (renewRefusal(contract) !== null) return null;
  return (
    <Button variant="outline" onClick={() => renew.mutate(contract.id)} disabled={renew.isPending}>
      <RotateCw aria-hidden className={renew.isPending ? 'animate-spin' : undefined} /> Renew
    </Button>
  );
}
