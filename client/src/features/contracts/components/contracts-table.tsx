import { type ContractSummary, canDeleteContract, canEditContract } from '@shared/contracts/contracts';
import { Copy, Eye, Link2, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/feedback';
import { paths } from '@/lib/paths';
import { usePayLink } from '../hooks/use-pay-link';
import { formatDate, shortId, termLabel } from '../lib/format';
import { ContractStatusBadge } from './contract-status-badge';

const HEADERS = ['ID', 'Description', 'Customer', 'Status', 'Start Date', 'Term'];

/** The contract list's table: one row per contract with its actions menu. */
export function ContractsTable({
  rows,
  loading,
  busy,
  canWrite,
  onEdit,
  onDelete,
}: {
  rows: ContractSummary[];
  loading: boolean;
  busy: boolean;
  canWrite: boolean;
  onEdit: (contract: ContractSummary) => void;
  onDelete: (contract: ContractSummary) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border bg-white shadow-sm">
      <table className="w-full text-sm" aria-busy={busy || loading}>
        <caption className="sr-only">Contracts</caption>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className="whitespace-nowrap px-4 py-3 font-medium">
                {header}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 text-right font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={busy ? 'opacity-70 transition-opacity' : undefined}>
          {loading
            ? Array.from({ length: 6 }, (_, i) => <SkeletonRow key={i} />)
            : rows.map((contract) => (
                <ContractRow
                  key={contract.id}
                  contract={contract}
                  canWrite={canWrite}
                  onEdit={() => onEdit(contract)}
                  onDelete={() => onDelete(contract)}
                />
              ))}
        </tbody>
      </table>
    </div>
  );
}

function SkeletonRow() {
  return (
    <tr className="border-t" data-testid="contract-row-skeleton">
      <td className="px-4 py-3">
        <Skeleton className="h-4 w-20" />
      </td>
      <td className="px-4 py-3">
        <Skeleton className="h-4 w-56" />
      </td>
      <td className="px-4 py-3 text-muted-foreground">Loading...</td>
      <td className="px-4 py-3">
        <Skeleton className="h-5 w-16 rounded-full" />
      </td>
      <td className="px-4 py-3">
        <Skeleton className="h-4 w-24" />
      </td>
      <td className="px-4 py-3">
        <Skeleton className="h-4 w-20" />
      </td>
      <td className="px-4 py-3" />
    </tr>
  );
}

function ContractRow({
  contract,
  canWrite,
  onEdit,
  onDelete,
}: {
  contract: ContractSummary;
  canWrite: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const id = shortId(contract.id);
  return (
    <tr className="border-t align-top hover:bg-muted/40" data-testid="contract-row" data-contract-id={contract.id}>
      <td className="whitespace-nowrap px-4 py-3">
        <Link
          href={paths.contract(contract.id)}
          className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`Contract ${id}`}
        >
          {id}
        </Link>
      </td>
      <td className="max-w-xs px-4 py-3">
        {contract.description ? (
          <span className="line-clamp-2 text-slate-900">{contract.description}</span>
        ) : (
          <span className="italic text-muted-foreground">No description</span>
        )}
      </td>
      <td className="px-4 py-3">{contract.customerName ?? 'Unknown Customer'}</td>
      <td className="px-4 py-3">
        <ContractStatusBadge status={contract.status} />
      </td>
      <td className="whitespace-nowrap px-4 py-3 tabular-nums">{formatDate(contract.startDate)}</td>
      <td className="whitespace-nowrap px-4 py-3">
        <span className="block">{termLabel(contract.termMonths)}</span>
        {contract.autoStopDate && (
          <span className="block text-xs text-muted-foreground">Auto-stops {formatDate(contract.autoStopDate)}</span>
        )}
      </td>
      <td className="px-4 py-2 text-right">
        <RowActions contract={contract} canWrite={canWrite} onEdit={onEdit} onDelete={onDelete} />
      </td>
    </tr>
  );
}

function RowActions({
  contract,
  canWrite,
  onEdit,
  onDelete,
}: {
  contract: ContractSummary;
  canWrite: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const [, navigate] = useLocation();
  const payLink = usePayLink();
  const editable = canWrite && contract.canEdit && canEditContract(contract);
  const deletable = canWrite && contract.canDelete && canDeleteContract(contract);
  const payLinkMode = contract.paymentMode === 'pay_link';
  // Not modal: the edit dialog and delete confirmation it opens manage focus and pointer events themselves.
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for contract ${shortId(contract.id)}`}>
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem onSelect={() => navigate(paths.contract(contract.id))}>
          <Eye aria-hidden /> View Details
        </DropdownMenuItem>
        {payLinkMode && contract.payLinkToken && (
          <DropdownMenuItem onSelect={() => void payLink.copy(contract)}>
            <Copy aria-hidden /> Copy Payment Link
          </DropdownMenuItem>
        )}
        {payLinkMode && !contract.payLinkToken && canWrite && (
          <DropdownMenuItem disabled={payLink.generating} onSelect={() => void payLink.create(contract)}>
            <Link2 aria-hidden /> Generate Payment Link
          </DropdownMenuItem>
        )}
        {editable && (
          <DropdownMenuItem onSelect={onEdit}>
            <Pencil aria-hidden /> Edit Contract
          </DropdownMenuItem>
        )}
        {deletable && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-destructive data-[highlighted]:bg-red-50 data-[highlighted]:text-destructive"
              onSelect={onDelete}
            >
              <Trash2 aria-hidden /> Delete Contract
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
