import { canDeleteContract, canEditContract } from '@shared/contracts/contract-lifecycle';
import type { ContractSummary } from '@shared/contracts/contract-responses';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
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
import { useWideScreen } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { usePayLink } from '../hooks/use-pay-link';
import { formatDate, formatMoney, termLabel } from '../lib/format';
import { ContractStatusBadge } from './contract-status-badge';

/** The table's columns; `className` leaves out the less needed ones on tablets. */
const COLUMNS = [
  { header: 'ID', className: '' },
  { header: 'Description', className: 'hidden md:table-cell' },
  { header: 'Customer', className: '' },
  { header: 'Status', className: '' },
  { header: 'Monthly', className: 'text-right' },
  { header: 'Start Date', className: 'hidden lg:table-cell' },
  { header: 'Term', className: '' },
] as const;
const cell = (index: number) => cn('px-4 py-3', COLUMNS[index].className);

/**
 * The contract list: a table with one row per contract and its actions menu; on a phone, one card per
 * contract with the same figures and actions, so nothing needs scrolling sideways.
 */
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
  const wide = useWideScreen();
  if (!wide) {
    return (
      <ul aria-label="Contracts" aria-busy={busy || loading} className={cn('grid gap-3', busy && 'opacity-70')}>
        {loading
          ? Array.from({ length: 4 }, (_, i) => (
              <li key={i}>
                <Skeleton className="h-32 rounded-xl" />
              </li>
            ))
          : rows.map((contract) => (
              <ContractCard
                key={contract.id}
                contract={contract}
                canWrite={canWrite}
                onEdit={() => onEdit(contract)}
                onDelete={() => onDelete(contract)}
              />
            ))}
      </ul>
    );
  }
  return (
    <div className="overflow-x-auto rounded-xl border bg-white shadow-sm">
      <table className="w-full text-sm" aria-busy={busy || loading}>
        <caption className="sr-only">Contracts</caption>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            {COLUMNS.map(({ header }, index) => (
              <th key={header} scope="col" className={cn(cell(index), 'whitespace-nowrap font-medium')}>
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
      <td className={cell(0)}>
        <Skeleton className="h-4 w-16" />
      </td>
      <td className={cell(1)}>
        <Skeleton className="h-4 w-56" />
      </td>
      <td className={cn(cell(2), 'text-muted-foreground')}>Loading...</td>
      <td className={cell(3)}>
        <Skeleton className="h-5 w-16 rounded-full" />
      </td>
      <td className={cell(4)}>
        <Skeleton className="ml-auto h-4 w-16" />
      </td>
      <td className={cell(5)}>
        <Skeleton className="h-4 w-24" />
      </td>
      <td className={cell(6)}>
        <Skeleton className="h-4 w-20" />
      </td>
      <td className="px-4 py-3" />
    </tr>
  );
}

/** One contract with what may be done to it: a table row, or a card on a phone. */
type ItemProps = { contract: ContractSummary; canWrite: boolean; onEdit: () => void; onDelete: () => void };

/** The short id, linking to the contract's page. */
function ContractIdLink({ id }: { id: string }) {
  const short = shortContractId(id);
  return (
    <Link
      href={paths.contract(id)}
      className="rounded font-mono text-xs font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      aria-label={`Contract ${short}`}
    >
      {short}
    </Link>
  );
}

function ContractRow({ contract, canWrite, onEdit, onDelete }: ItemProps) {
  return (
    <tr className="border-t align-top hover:bg-muted/40" data-testid="contract-row" data-contract-id={contract.id}>
      <td className={cn(cell(0), 'whitespace-nowrap')}>
        <ContractIdLink id={contract.id} />
      </td>
      <td className={cn(cell(1), 'max-w-xs')}>
        {contract.description ? (
          <span className="line-clamp-2 text-slate-900">{contract.description}</span>
        ) : (
          <span className="italic text-muted-foreground">No description</span>
        )}
      </td>
      <td className={cell(2)}>{contract.customerName ?? 'Unknown Customer'}</td>
      <td className={cell(3)}>
        <ContractStatusBadge status={contract.status} />
      </td>
      <td className={cn(cell(4), 'whitespace-nowrap tabular-nums')} data-testid="contract-monthly">
        {formatMoney(contract.monthlyAmount)}
      </td>
      <td className={cn(cell(5), 'whitespace-nowrap tabular-nums')}>{formatDate(contract.startDate)}</td>
      <td className={cn(cell(6), 'whitespace-nowrap')}>
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

function ContractCard({ contract, canWrite, onEdit, onDelete }: ItemProps) {
  return (
    <li
      className="grid gap-2 rounded-xl border bg-white p-4 text-sm shadow-sm"
      data-testid="contract-row"
      data-contract-id={contract.id}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <ContractIdLink id={contract.id} />
          <p className="font-medium text-slate-900">{contract.customerName ?? 'Unknown Customer'}</p>
          {contract.description ? (
            <p className="line-clamp-2 text-muted-foreground">{contract.description}</p>
          ) : (
            <p className="italic text-muted-foreground">No description</p>
          )}
        </div>
        <RowActions contract={contract} canWrite={canWrite} onEdit={onEdit} onDelete={onDelete} />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ContractStatusBadge status={contract.status} />
        <span className="font-medium tabular-nums text-slate-900" data-testid="contract-monthly">
          {formatMoney(contract.monthlyAmount)} / month
        </span>
      </div>
      <p className="text-xs text-muted-foreground">
        Starts {formatDate(contract.startDate)} · {termLabel(contract.termMonths)}
        {contract.autoStopDate && ` · auto-stops ${formatDate(contract.autoStopDate)}`}
      </p>
    </li>
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
        <Button variant="ghost" size="icon" aria-label={`Actions for contract ${shortContractId(contract.id)}`}>
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
