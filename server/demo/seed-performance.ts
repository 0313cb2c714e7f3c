import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The demo's campaign figures, as staff would have entered them: for every contract that has run (active,
 * paused or completed), one row per calendar month from its start month to last month (or its last month,
 * when it ended), in one statement. The figures grow with the contract's monthly amount and vary by month,
 * so the portal's card and the contract pages show plausible, different numbers.
 */
export async function seedPerformance(db: Db): Promise<void> {
  await db.execute(sql`
    insert into contract_performance (contract_id, month, impressions, clicks, views, updated_by)
    select c.id,
           to_char(m, 'YYYY-MM'),
           figures.impressions,
           figures.impressions * (18 + (extract(month from m)::int * 7 + length(c.id::text)) % 17) / 1000,
           figures.impressions * (30 + extract(month from m)::int % 9) / 100,
           (select id from users where email = 'manager@demo.test')
    from contracts c
    cross join lateral generate_series(
      date_trunc('month', c.start_date::timestamp),
      least(
        date_trunc('month', now() at time zone 'utc') - interval '1 month',
        coalesce(date_trunc('month', c.auto_stop_date::timestamp - interval '1 day'), 'infinity'::timestamp)
      ),
      interval '1 month'
    ) m
    cross join lateral (
      select (c.monthly_amount_cents / 100) * 40 + extract(month from m)::int * 1375 + 2500 as impressions
    ) figures
    where c.status in ('active', 'paused', 'completed')
    on conflict (contract_id, month) do nothing
  `);
}
