import {
  COMMISSION_STATUS_LABELS,
  type CommissionStatus,
  PAYOUT_STATUS_LABELS,
  type PayoutStatus,
} from '@shared/contracts/commission-vocabulary';
import { Badge } from '@/components/ui/badge';

const COMMISSION_TONES = {
  available: 'green',
  requested: 'yellow',
  disbursed: 'blue',
  adjusted: 'red',
} as const satisfies Record<CommissionStatus, string>;

const PAYOUT_TONES = {
  pending: 'yellow',
  approved: 'indigo',
  disbursed: 'green',
  rejected: 'red',
} as const satisfies Record<PayoutStatus, string>;

export function CommissionStatusBadge({ status }: { status: CommissionStatus }) {
  return (
    <Badge tone={COMMISSION_TONES[status] ?? 'grey'} data-status={status}>
      {COMMISSION_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  return (
    <Badge tone={PAYOUT_TONES[status] ?? 'grey'} data-status={status}>
      {PAYOUT_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}
