import { DEAL_SOURCE_LABELS, STAGE_KIND_LABELS } from '@shared/contracts/deal-vocabulary';
import type { Deal } from '@shared/contracts/deals';
import { Ban, ExternalLink, FileText, Pencil, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Fact } from '@/components/ui/fact';
import { ErrorState } from '@/components/ui/feedback';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet';
import { formatDate, formatMoney, formatTimeAgo } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useCreateDealContract } from '../api/create-deal-contract';
import { useDeleteDeal } from '../api/delete-deal';
import { useDeal } from '../api/get-deal';
import { useLoseDeal } from '../api/lose-deal';
import { closeText, percent } from '../lib/format-deal';
import { LostReasonDialog } from './lost-reason-dialog';

const STAGE_TONES = { open: 'blue', won: 'green', lost: 'grey' } as const;

/** A deal's details beside the board or list, with its actions: edit, draft its contract, mark as lost, delete. */
export function DealDetailsSheet({
  opened,
  onClose,
  onEdit,
  activities,
}: {
  /** The deal as the board or list showed it (the sheet loads it afresh); null when closed. */
  opened: Deal | null;
  onClose: () => void;
  onEdit: (deal: Deal) => void;
  /** The deal's activities with "Log activity": the activities feature's, which the page hands in. */
  activities?: (deal: Deal) => ReactNode;
}) {
  return (
    <Sheet open={opened !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        side="right"
        closeLabel="Close deal details"
        className="w-[28rem] max-w-full gap-5 p-5"
        aria-describedby={undefined}
      >
        {opened && <DealDetails shown={opened} onClose={onClose} onEdit={onEdit} activities={activities} />}
      </SheetContent>
    </Sheet>
  );
}

function DealDetails({
  shown,
  onClose,
  onEdit,
  activities,
}: {
  shown: Deal;
  onClose: () => void;
  onEdit: (deal: Deal) => void;
  activities?: (deal: Deal) => ReactNode;
}) {
  const query = useDeal(shown.id, shown);
  const deal = query.data ?? shown;
  const createContract = useCreateDealContract();
  const lose = useLoseDeal();
  const remove = useDeleteDeal();
  const [losing, setLosing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const open = deal.stageKind === 'open';

  return (
    <>
      <div className="grid gap-2 pr-8">
        <SheetTitle className="break-words text-lg font-semibold text-slate-900">{deal.title}</SheetTitle>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={STAGE_TONES[deal.stageKind]}>{deal.stageName}</Badge>
          {deal.stageKind !== 'open' && (
            <span className="text-xs text-muted-foreground">{STAGE_KIND_LABELS[deal.stageKind]}</span>
          )}
          {deal.stale && <Badge tone="yellow">Stale</Badge>}
        </div>
      </div>
      {query.error && (
        <ErrorState title="Could not load the latest details of this deal">
          What is shown may be out of date.
        </ErrorState>
      )}

      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => onEdit(deal)}>
          <Pencil aria-hidden /> Edit
        </Button>
        {open && !deal.contractId && (
          <Button size="sm" disabled={createContract.isPending} onClick={() => createContract.mutate(deal)}>
            <FileText aria-hidden /> {createContract.isPending ? 'Creating...' : 'Create contract'}
          </Button>
        )}
        {deal.contractId && deal.contractStatus === 'draft' && (
          <Button size="sm" asChild>
            <Link href={paths.editContract(deal.contractId)}>
              <ExternalLink aria-hidden /> Open contract
            </Link>
          </Button>
        )}
        {open && (
          <Button variant="outline" size="sm" onClick={() => setLosing(true)}>
            <Ban aria-hidden /> Mark as lost
          </Button>
        )}
        {open && !deal.contractId && (
          <Button
            variant="ghost"
            size="sm"
            className="text-destructive hover:bg-red-50 hover:text-destructive"
            onClick={() => setDeleting(true)}
          >
            <Trash2 aria-hidden /> Delete
          </Button>
        )}
      </div>

      <dl className="grid gap-2 text-sm">
        <Fact label="Customer">
          <Link href={paths.customer(deal.customerId)} className="text-primary hover:underline">
            {deal.customerName}
          </Link>
        </Fact>
        <Fact label="Owner">{deal.ownerName}</Fact>
        <Fact label="Stage">{deal.stageName}</Fact>
        <Fact label="Amount">{formatMoney(deal.amount)}</Fact>
        <Fact label="Probability">
          {percent(deal.probability)}{' '}
          <span className="text-muted-foreground">
            {deal.probabilityOverridden ? '(set for this deal)' : '(the stage default)'}
          </span>
        </Fact>
        <Fact label="Weighted">{formatMoney(deal.weightedAmount)}</Fact>
        <Fact label="Expected close">
          {deal.expectedCloseDate ? formatDate(deal.expectedCloseDate) : closeText(null)}
        </Fact>
        <Fact label="Flight">{flightText(deal)}</Fact>
        <Fact label="Source">{DEAL_SOURCE_LABELS[deal.source]}</Fact>
        <Fact label="Next step">{deal.nextStep ?? <None />}</Fact>
        {deal.lostReason && <Fact label="Lost reason">{deal.lostReason}</Fact>}
        <Fact label="Contract">
          {deal.contractId ? (
            <Link href={paths.contract(deal.contractId)} className="text-primary hover:underline">
              {deal.contractTitle || 'Linked contract'}
              {deal.contractStatus ? ` (${deal.contractStatus})` : ''}
            </Link>
          ) : (
            <None>None yet</None>
          )}
        </Fact>
        <Fact label="Last activity">{formatTimeAgo(deal.lastActivityAt)}</Fact>
        {deal.closedAt && <Fact label="Closed">{formatDate(deal.closedAt)}</Fact>}
        <Fact label="Created">{formatDate(deal.createdAt)}</Fact>
        <Fact label="Updated">{formatDate(deal.updatedAt)}</Fact>
      </dl>

      <section aria-labelledby="deal-lines-title" className="grid gap-2">
        <h3 id="deal-lines-title" className="text-sm font-semibold text-slate-900">
          Product lines
        </h3>
        {deal.lines.length === 0 ? (
          <p className="text-sm text-muted-foreground">No product lines.</p>
        ) : (
          <ul className="grid gap-1 text-sm">
            {deal.lines.map((line, index) => (
              <li key={`${line.productId}-${index}`} className="flex justify-between gap-3 rounded-md border px-3 py-2">
                <span className="min-w-0 break-words">
                  {line.productName} × {line.quantity}
                </span>
                <span className="shrink-0 tabular-nums">{formatMoney(line.unitPrice)} each</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      {activities?.(deal)}

      <LostReasonDialog
        losing={losing ? { deal } : null}
        busy={lose.isPending}
        onClose={() => setLosing(false)}
        onConfirm={(reason) =>
          lose.mutate({ id: deal.id, reason, version: deal.version }, { onSuccess: () => setLosing(false) })
        }
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this deal?"
        description={`${deal.title} for ${deal.customerName} will be removed from the pipeline. This cannot be undone.`}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(deal, {
            onSuccess: () => {
              setDeleting(false);
              onClose();
            },
          })
        }
      />
    </>
  );
}

function None({ children = 'None' }: { children?: ReactNode }) {
  return <span className="text-muted-foreground">{children}</span>;
}

/** "Jan 1, 2027 to Mar 31, 2027"; a missing end or start says so. */
function flightText(deal: Pick<Deal, 'flightStart' | 'flightEnd'>) {
  if (!deal.flightStart && !deal.flightEnd) return <None>Not set</None>;
  if (!deal.flightEnd) return `From ${formatDate(deal.flightStart)}`;
  if (!deal.flightStart) return `Until ${formatDate(deal.flightEnd)}`;
  return `${formatDate(deal.flightStart)} to ${formatDate(deal.flightEnd)}`;
}
