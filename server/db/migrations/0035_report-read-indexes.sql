-- Indexes the report reads alone (index-only), so that a report over a year no longer visits a heap row per
-- contract it counts (docs/performance.md, "Reports").
--
-- The sell-through and inventory availability look up the contract of each line that may take units: only
-- an active, paused or sent contract can (reports' sellThrough, inventory.repo takenLines). 11,078 lookups
-- for a year on the reports benchmark, three buffers each instead of four, and no heap row.
CREATE INDEX IF NOT EXISTS "contracts_taking_units_idx" ON "contracts" USING btree ("id") INCLUDE ("status", "auto_stop_date")
  WHERE "status" IN ('active', 'paused', 'sent');--> statement-breakpoint
-- The renewal rate's ended contracts (reports.repo endedIn): every column it reads, so the 20,000 contracts
-- whose term ended in a year are counted from the index (contracts_term_end_idx gives the rows to visit).
CREATE INDEX IF NOT EXISTS "contracts_term_end_cover_idx" ON "contracts" USING btree ("auto_stop_date")
  INCLUDE ("status", "canceled_at", "sales_rep_id", "term_value_cents", "id")
  WHERE "auto_stop_date" IS NOT NULL AND "status" IN ('active', 'paused', 'completed', 'canceled');--> statement-breakpoint
-- The contracts saved before term values were stored (the billing engine values them): the ended ones, and
-- the renewals, each a partial index of those rows only, empty once every contract has been saved again.
CREATE INDEX IF NOT EXISTS "contracts_term_end_unvalued_idx" ON "contracts" USING btree ("auto_stop_date")
  WHERE "term_value_cents" IS NULL AND "auto_stop_date" IS NOT NULL
    AND "status" IN ('active', 'paused', 'completed', 'canceled');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contracts_renewal_unvalued_idx" ON "contracts" USING btree ("renewal_of_id")
  WHERE "term_value_cents" IS NULL AND "renewal_of_id" IS NOT NULL;
--> statement-breakpoint
-- A rep's Recent Activity (audit.repo selectRecentActivity) takes the newest events of each of the rep's
-- contracts: one probe per contract, each now answered from this index alone (entity id, time, id), instead
-- of audit_entity_idx and a heap row per event. The contract events only: the invoice and other events,
-- most of the table, are not in it.
CREATE INDEX IF NOT EXISTS "audit_contract_events_idx" ON "audit_events" USING btree ("entity_id", "created_at", "id")
  WHERE "entity" = 'contract';
