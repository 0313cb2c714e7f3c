import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/db-rows';

/** The built-in provider's own tables (builtin-vault.ts): its saved test cards and its charges by key. */

export async function insertSavedCard(db: Db, providerMethodId: string, behaviour: string): Promise<void> {
  await db.execute(
    sql`insert into builtin_saved_cards (provider_method_id, behaviour) values (${providerMethodId}, ${behaviour})`,
  );
}

export type BuiltinChargeRow = {
  idempotency_key: string;
  provider_payment_id: string;
  outcome: string;
  decline_code: string | null;
};

type Decision = { outcome: string; declineCode: string | null };

/**
 * Records charges under their idempotency keys (distinct), each decided by its saved card's behaviour
 * (`outcomes`; a card not on file: `unknownCard`), in ONE statement; a key recorded before answers the charge
 * recorded under it, never a second one.
 */
export async function insertChargesOnce(
  db: Db,
  charges: readonly {
    idempotencyKey: string;
    providerPaymentId: string;
    providerMethodId: string;
    amountCents: number;
  }[],
  rules: { outcomes: Record<string, Decision>; unknownCard: Decision },
): Promise<BuiltinChargeRow[]> {
  if (charges.length === 0) return [];
  const column = <T>(value: (c: (typeof charges)[number]) => T) => sql.param(charges.map(value));
  const outcomes = sql.join(
    Object.entries(rules.outcomes).map(
      ([behaviour, decided]) => sql`(${behaviour}, ${decided.outcome}, ${decided.declineCode}::text)`,
    ),
    sql`, `,
  );
  const keys = column((c) => c.idempotencyKey);
  return rowsOf<BuiltinChargeRow>(
    await db.execute(sql`
      with requested as (
        select * from unnest(${keys}::text[], ${column((c) => c.providerPaymentId)}::text[],
                             ${column((c) => c.providerMethodId)}::text[], ${column((c) => c.amountCents)}::bigint[])
          as r(idempotency_key, provider_payment_id, provider_method_id, amount_cents)
      ),
      inserted as (
        insert into builtin_charges (idempotency_key, provider_payment_id, provider_method_id, amount_cents, outcome, decline_code)
        select r.idempotency_key, r.provider_payment_id, r.provider_method_id, r.amount_cents,
               coalesce(o.outcome, ${rules.unknownCard.outcome}),
               case when o.outcome is null then ${rules.unknownCard.declineCode}::text else o.decline_code end
        from requested r
        left join builtin_saved_cards c on c.provider_method_id = r.provider_method_id
        left join (values ${outcomes}) as o(behaviour, outcome, decline_code) on o.behaviour = c.behaviour
        on conflict (idempotency_key) do nothing
        returning idempotency_key, provider_payment_id, outcome, decline_code
      )
      select idempotency_key, provider_payment_id, outcome, decline_code from inserted
      union all
      select b.idempotency_key, b.provider_payment_id, b.outcome, b.decline_code from builtin_charges b
      where b.idempotency_key = any(${keys}::text[])
        and not exists (select 1 from inserted i where i.idempotency_key = b.idempotency_key)`),
  );
}

/** Gives back part or all of a succeeded charge, never more than it took. Answers whether it did. */
export async function refundCharge(db: Db, providerPaymentId: string, amountCents: number): Promise<boolean> {
  const rows = rowsOf<{ provider_payment_id: string }>(
    await db.execute(sql`
      update builtin_charges set refunded_cents = refunded_cents + ${amountCents}
      where provider_payment_id = ${providerPaymentId} and outcome = 'succeeded'
        and refunded_cents + ${amountCents} <= amount_cents
      returning provider_payment_id`),
  );
  return rows.length > 0;
}
