import { CREDIT_NOTE_KIND_LABELS, type CreditNoteKind } from '@shared/contracts/credit-notes';
import { Badge } from '@/components/ui/badge';

const TONES: Record<CreditNoteKind, 'grey' | 'blue' | 'yellow'> = { void: 'grey', partial: 'blue', delivery: 'yellow' };

/** Why a credit note was issued: a void grey, a partial credit blue, an under-delivery yellow. */
export function CreditNoteKindBadge({ kind }: { kind: CreditNoteKind }) {
  return (
    <Badge tone={TONES[kind] ?? 'grey'} className="whitespace-nowrap" data-testid="credit-note-kind">
      {CREDIT_NOTE_KIND_LABELS[kind] ?? kind}
    </Badge>
  );
}
