import { canDeleteContract, canEditContract } from '@shared/contracts/contract-lifecycle';
import type { ContractSummary } from '@shared/contracts/contract-responses';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { Copy, Eye, Link2, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { type Column, DataTable } from '@/components/ui/data-table';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/feedback';
import { contractValueText } from '@/lib/contract-value';
import { paths } from '@/lib/paths';
import { usePayLink } from '../hooks/use-pay-link';
import { formatDate, termLabel } from '../lib/format';
import { ContractStatusBadge } from './contract-status-badge';
import { PauseReasonNote } from './pause-reason-note';

/** The table's columns; `className` leaves out the less needed ones on tablets. */
const COLUMNS: Column<ContractSummary>[] = [
  {
    id: 'id',
    header: 'ID',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => <ContractIdLink id={contract.id} />,
  },
  {
    id: 'description',
    header: 'Description',
    className: 'hidden md:table-cell',
    cellClassName: 'min-w-[9rem] max-w-xs',
    cell: (contract) =>
      contract.description ? (
        <span className="line-clamp-2 text-slate-900">{contract.description}</span>
      ) : (
        <span className="italic text-muted-foreground">No description</span>
      ),
    placeholder: <Skeleton className="h-4 w-56" />,
  },
  {
    id: 'customer',
    header: 'Customer',
    cell: (contract) => contract.customerName ?? 'Unknown Customer',
    placeholder: <span className="text-muted-foreground">Loading...</span>,
  },
  {
    id: 'status',
    header: 'Status',
    cell: (contract) => (
      <span className="grid justify-items-start gap-1">
        <ContractStatusBadge status={contract.status} />
        <PauseReasonNote contract={contract} />
      </span>
    ),
    placeholder: <Skeleton className="h-5 w-16 rounded-full" />,
  },
  {
    id: 'value',
    header: 'Value',
    align: 'right',
    cellClassName: 'whitespace-nowrap',
    cell: (contract) => <ContractValue contract={contract} />,
  },
  {
    id: 'start',
    header: 'Start Date',
    className: 'hidden lg:table-cell',
    cellClassName: 'whitespace-nowrap tabular-nums',
    cell: (contract) => formatDate(contract.startDate),
  },
  {
    id: 'term',
    header: 'Term',
    cellClassName: 'min-w-[6.5rem]',
    cell: (contract) => (
      <>
        <span className="block whitespace-nowrap">{termLabel(contract.termMonths)}</span>
        {contract.autoStopDate && (
          <span className="block text-xs text-muted-foreground">Auto-stops {formatDate(contract.autoStopDate)}</span>
        )}
      </>
    ),
  },
];

/**
 * The contract list: a table with one row per contract and its actions menu; on a phone, one card per
 * contract with the same figures and actions, so nothing needs scrolling sideways. The list is a page of the
 * server's, in the server's order.
 */
export function ContractsTable({
  rows,
  loading,
  busy,
  canWrite,
  empty,
  onEdit,
  onDelete,
}: {
  rows: ContractSummary[];
  loading: boolean;
  busy: boolean;
  canWrite: boolean;
  empty: ReactNode;
  onEdit: (contract: ContractSummary) => void;
  onDelete: (contract: ContractSummary) => void;
}) {
  const actions = (contract: ContractSummary) => (
    <RowActions
      contract={contract}
      canWrite={canWrite}
      onEdit={() => onEdit(contract)}
      onDelete={() => onDelete(contract)}
    />
  );
  const columns: Column<ContractSummary>[] = [
    ...COLUMNS,
    { id: 'actions', header: 'Actions', hideHeader: true, cellClassName: 'py-2 text-right', cell: actions },
  ];
  return (
    <DataTable
      caption="Contracts"
      columns={columns}
      rows={rows}
      rowKey={(contract) => contract.id}
      rowProps={(contract) => ({ 'data-testid': 'contract-row', 'data-contract-id': contract.id })}
      loading={loading}
      loadingRows={6}
      busy={busy}
      empty={empty}
      frame="card"
      density="snug"
      phone="cards"
      card={(contract) => <ContractCard contract={contract} actions={actions(contract)} />}
    />
  );
}

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

/** A contract on a phone: the same figures as its table row, and its actions menu. */
function ContractCard({ contract, actions }: { contract: ContractSummary; actions: ReactNode }) {
  return (
    <>
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
        {actions}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="grid justify-items-start gap-1">
          <ContractStatusBadge status={contract.status} />
          <PauseReasonNote contract={contract} />
        </span>
        <ContractValue contract={contract} />
      </div>
      <p className="text-xs text-muted-foreground">
        Starts {formatDate(contract.startDate)} · {termLabel(contract.termMonths)}
        {contract.autoStopDate && ` · auto-stops ${formatDate(contract.autoStopDate)}`}
      </p>
    </>
  );
}

/** The billing engine's value of a contract: over its term, or per month (lib/contract-value.ts). */
function ContractValue({ contract }: { contract: ContractSummary }) {
  const value = contractValueText(contract);
  return (
    <span className="grid justify-items-end" data-testid="contract-value">
      <span className="font-medium tabular-nums text-slate-900">{value.amount}</span>
      <span className="text-xs text-muted-foreground">{value.note}</span>
    </span>
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
