CREATE TABLE "report_book_totals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rep_id" uuid,
	"status" text NOT NULL,
	"contracts" integer NOT NULL,
	"monthly_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_book_totals_idx" ON "report_book_totals" USING btree ("rep_id","status");--> statement-breakpoint
CREATE INDEX "contracts_report_rep_idx" ON "contracts" USING btree ("sales_rep_id","status","customer_id");--> statement-breakpoint
-- Contracts by status with their monthly amount, company-wide and per rep: insert-only delta rows from
-- every insert, update and delete of contracts (statement-level, transition tables).
CREATE FUNCTION report_book_contracts_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_book_totals (rep_id, status, contracts, monthly_cents)
  SELECT NULL, n.status, count(*), sum(n.monthly_amount_cents) FROM report_new n GROUP BY n.status
  UNION ALL
  SELECT n.sales_rep_id, n.status, count(*), sum(n.monthly_amount_cents) FROM report_new n
  WHERE n.sales_rep_id IS NOT NULL GROUP BY n.sales_rep_id, n.status;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_book_contracts_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_book_totals (rep_id, status, contracts, monthly_cents)
  SELECT NULL, o.status, -count(*), -sum(o.monthly_amount_cents) FROM report_old o GROUP BY o.status
  UNION ALL
  SELECT o.sales_rep_id, o.status, -count(*), -sum(o.monthly_amount_cents) FROM report_old o
  WHERE o.sales_rep_id IS NOT NULL GROUP BY o.sales_rep_id, o.status;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only rows whose status, monthly amount or rep changed write anything.
CREATE FUNCTION report_book_contracts_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT n.status AS new_status, n.monthly_amount_cents AS new_monthly, n.sales_rep_id AS new_rep,
           o.status AS old_status, o.monthly_amount_cents AS old_monthly, o.sales_rep_id AS old_rep
    FROM report_new n JOIN report_old o ON o.id = n.id
    WHERE n.status <> o.status OR n.monthly_amount_cents <> o.monthly_amount_cents
       OR n.sales_rep_id IS DISTINCT FROM o.sales_rep_id
  ),
  d AS (
    SELECT NULL::uuid AS rep, new_status AS status, 1 AS n, new_monthly AS cents FROM changed
    UNION ALL SELECT NULL, old_status, -1, -old_monthly FROM changed
    UNION ALL SELECT new_rep, new_status, 1, new_monthly FROM changed WHERE new_rep IS NOT NULL
    UNION ALL SELECT old_rep, old_status, -1, -old_monthly FROM changed WHERE old_rep IS NOT NULL
  )
  INSERT INTO report_book_totals (rep_id, status, contracts, monthly_cents)
  SELECT d.rep, d.status, sum(d.n), sum(d.cents) FROM d
  GROUP BY d.rep, d.status
  HAVING sum(d.n) <> 0 OR sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_book_ins AFTER INSERT ON contracts REFERENCING NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_book_contracts_ins();
--> statement-breakpoint
CREATE TRIGGER report_book_upd AFTER UPDATE ON contracts REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_book_contracts_upd();
--> statement-breakpoint
CREATE TRIGGER report_book_del AFTER DELETE ON contracts REFERENCING OLD TABLE AS report_old
  FOR EACH STATEMENT EXECUTE FUNCTION report_book_contracts_del();
--> statement-breakpoint
INSERT INTO report_book_totals (rep_id, status, contracts, monthly_cents)
SELECT NULL, status, count(*), sum(monthly_amount_cents) FROM contracts GROUP BY status
UNION ALL
SELECT sales_rep_id, status, count(*), sum(monthly_amount_cents) FROM contracts
WHERE sales_rep_id IS NOT NULL GROUP BY sales_rep_id, status;
