import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/db-rows';

/** The built-in provider's own tables (builtin-vault.ts): its saved test cards and its charges by key. */

export async function insertSavedCard(db: Db, providerMethodId: string, behaviour: string): Promise<void> {
  await db.execute(
    sql`insert into builtin_saved_cards (provider_method_id, behaviour) values (${providerMethodId}, ${behaviour})`,
  );
}

export async function selectSavedCardBehaviour(db: Db, providerMethodId: string): Promise<string | undefined> {
  const [card] = rowsOf<{ behaviour: string }>(
    await db.execute(sql`select behaviour from builtin_saved_cards where provider_method_id = ${providerMethodId}`),
  );
  return card?.behaviour;
}

export type BuiltinChargeRow = { provider_payment_id: string; outcome: string; decline_code: string | null };

/** Records a charge under its idempotency key, or answers the charge already recorded under it. */
export async function insertChargeOnce(
  db: Db,
  charge: {
    idempotencyKey: string;
    providerPaymentId: string;
    providerMethodId: string;
    amountCents: number;
    outcome: string;
    declineCode: string | null;
  },
): Promise<BuiltinChargeRow | undefined> {
  const [row] = rowsOf<BuiltinChargeRow>(
    await db.execute(sql`
      with inserted as (
        insert into builtin_charges (idempotency_key, provider_payment_id, provider_method_id, amount_cents, outcome, decline_code)
        values (${charge.idempotencyKey}, ${charge.providerPaymentId}, ${charge.providerMethodId}, ${charge.amountCents},
                ${charge.outcome}, ${charge.declineCode})
        on conflict (idempotency_key) do nothing
        returning provider_payment_id, outcome, decline_code
      )
      select provider_payment_id, outcome, decline_code from inserted
      union all
      select provider_payment_id, outcome, decline_code from builtin_charges
      where idempotency_key = ${charge.idempotencyKey} and not exists (select 1 from inserted)`),
  );
  return row;
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
