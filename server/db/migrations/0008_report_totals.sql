CREATE TABLE "report_month_totals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"month" date NOT NULL,
	"metric" text NOT NULL,
	"product_id" uuid,
	"amount_cents" bigint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_month_totals_metric_check" CHECK ("report_month_totals"."metric" in ('revenue','billed','product'))
);
--> statement-breakpoint
CREATE INDEX "report_month_totals_idx" ON "report_month_totals" USING btree ("metric","month","product_id");--> statement-breakpoint
CREATE INDEX "audit_actor_idx" ON "audit_events" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "contracts_auto_stop_idx" ON "contracts" USING btree ("auto_stop_date") WHERE "contracts"."status" in ('active','paused') and "contracts"."auto_stop_date" is not null;--> statement-breakpoint
-- Report totals follow every write to payments, invoices and invoice lines (server/db/schema/reports.ts).
-- Statement-level triggers with transition tables: one set-based INSERT of delta rows per statement.
CREATE FUNCTION report_month_of(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', ts AT TIME ZONE 'UTC')::date
$$;
--> statement-breakpoint
CREATE FUNCTION report_totals_payments_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, amount_cents)
  SELECT report_month_of(n.paid_at), 'revenue',
         sum(CASE WHEN n.kind = 'refund' THEN -n.amount_cents ELSE n.amount_cents END)
  FROM report_new n WHERE n.status = 'succeeded'
  GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_totals_payments_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, amount_cents)
  SELECT report_month_of(o.paid_at), 'revenue',
         -sum(CASE WHEN o.kind = 'refund' THEN -o.amount_cents ELSE o.amount_cents END)
  FROM report_old o WHERE o.status = 'succeeded'
  GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_totals_payments_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, amount_cents)
  SELECT d.month, 'revenue', sum(d.cents)
  FROM (
    SELECT report_month_of(n.paid_at) AS month,
           CASE WHEN n.kind = 'refund' THEN -n.amount_cents ELSE n.amount_cents END AS cents
    FROM report_new n WHERE n.status = 'succeeded'
    UNION ALL
    SELECT report_month_of(o.paid_at), CASE WHEN o.kind = 'refund' THEN o.amount_cents ELSE -o.amount_cents END
    FROM report_old o WHERE o.status = 'succeeded'
  ) d
  GROUP BY d.month
  HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_totals_ins AFTER INSERT ON payments REFERENCING NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_payments_ins();
--> statement-breakpoint
CREATE TRIGGER report_totals_upd AFTER UPDATE ON payments REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_payments_upd();
--> statement-breakpoint
CREATE TRIGGER report_totals_del AFTER DELETE ON payments REFERENCING OLD TABLE AS report_old
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_payments_del();
--> statement-breakpoint
CREATE FUNCTION report_totals_invoices_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, amount_cents, count)
  SELECT report_month_of(n.issued_at), 'billed', sum(n.total_cents), count(*)
  FROM report_new n WHERE n.status <> 'void'
  GROUP BY 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update moves the invoice's total, and its product lines, only when it is voided (or un-voided) or
-- its issue month changes; any other update nets to nothing and writes no row.
CREATE FUNCTION report_totals_invoices_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, amount_cents, count)
  SELECT d.month, 'billed', sum(d.cents), sum(d.n)::int
  FROM (
    SELECT report_month_of(n.issued_at) AS month, n.total_cents AS cents, 1 AS n
    FROM report_new n WHERE n.status <> 'void'
    UNION ALL
    SELECT report_month_of(o.issued_at), -o.total_cents, -1 FROM report_old o WHERE o.status <> 'void'
  ) d
  GROUP BY d.month
  HAVING sum(d.cents) <> 0 OR sum(d.n) <> 0;

  WITH changed AS (
    SELECT n.id, n.status AS new_status, n.issued_at AS new_issued, o.status AS old_status, o.issued_at AS old_issued
    FROM report_new n JOIN report_old o ON o.id = n.id
    WHERE (n.status = 'void') <> (o.status = 'void') OR report_month_of(n.issued_at) <> report_month_of(o.issued_at)
  )
  INSERT INTO report_month_totals (month, metric, product_id, amount_cents)
  SELECT d.month, 'product', d.product_id, sum(d.cents)
  FROM (
    SELECT report_month_of(c.new_issued) AS month, l.product_id, l.amount_cents AS cents
    FROM changed c JOIN invoice_lines l ON l.invoice_id = c.id
    WHERE c.new_status <> 'void' AND l.product_id IS NOT NULL
    UNION ALL
    SELECT report_month_of(c.old_issued), l.product_id, -l.amount_cents
    FROM changed c JOIN invoice_lines l ON l.invoice_id = c.id
    WHERE c.old_status <> 'void' AND l.product_id IS NOT NULL
  ) d
  GROUP BY d.month, d.product_id
  HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_totals_invoices_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- BEFORE DELETE, per row: the invoice's lines still exist (they go with it by cascade).
  INSERT INTO report_month_totals (month, metric, amount_cents, count)
  SELECT report_month_of(OLD.issued_at), 'billed', -OLD.total_cents, -1
  WHERE OLD.status <> 'void';
  INSERT INTO report_month_totals (month, metric, product_id, amount_cents)
  SELECT report_month_of(OLD.issued_at), 'product', l.product_id, -sum(l.amount_cents)
  FROM invoice_lines l
  WHERE l.invoice_id = OLD.id AND OLD.status <> 'void' AND l.product_id IS NOT NULL
  GROUP BY l.product_id;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_totals_ins AFTER INSERT ON invoices REFERENCING NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_invoices_ins();
--> statement-breakpoint
CREATE TRIGGER report_totals_upd AFTER UPDATE ON invoices REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_invoices_upd();
--> statement-breakpoint
CREATE TRIGGER report_totals_del BEFORE DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION report_totals_invoices_del();
--> statement-breakpoint
CREATE FUNCTION report_totals_lines_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, product_id, amount_cents)
  SELECT report_month_of(i.issued_at), 'product', n.product_id, sum(n.amount_cents)
  FROM report_new n JOIN invoices i ON i.id = n.invoice_id
  WHERE i.status <> 'void' AND n.product_id IS NOT NULL
  GROUP BY 1, n.product_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A line whose invoice is gone was subtracted by the invoice's own delete trigger.
CREATE FUNCTION report_totals_lines_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, product_id, amount_cents)
  SELECT report_month_of(i.issued_at), 'product', o.product_id, -sum(o.amount_cents)
  FROM report_old o JOIN invoices i ON i.id = o.invoice_id
  WHERE i.status <> 'void' AND o.product_id IS NOT NULL
  GROUP BY 1, o.product_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_totals_lines_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, product_id, amount_cents)
  SELECT d.month, 'product', d.product_id, sum(d.cents)
  FROM (
    SELECT report_month_of(i.issued_at) AS month, n.product_id, n.amount_cents AS cents
    FROM report_new n JOIN invoices i ON i.id = n.invoice_id
    WHERE i.status <> 'void' AND n.product_id IS NOT NULL
    UNION ALL
    SELECT report_month_of(i.issued_at), o.product_id, -o.amount_cents
    FROM report_old o JOIN invoices i ON i.id = o.invoice_id
    WHERE i.status <> 'void' AND o.product_id IS NOT NULL
  ) d
  GROUP BY d.month, d.product_id
  HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_totals_ins AFTER INSERT ON invoice_lines REFERENCING NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_lines_ins();
--> statement-breakpoint
CREATE TRIGGER report_totals_upd AFTER UPDATE ON invoice_lines REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_lines_upd();
--> statement-breakpoint
CREATE TRIGGER report_totals_del AFTER DELETE ON invoice_lines REFERENCING OLD TABLE AS report_old
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_lines_del();
--> statement-breakpoint
-- Rows written before this migration.
INSERT INTO report_month_totals (month, metric, amount_cents)
SELECT report_month_of(paid_at), 'revenue', sum(CASE WHEN kind = 'refund' THEN -amount_cents ELSE amount_cents END)
FROM payments WHERE status = 'succeeded' GROUP BY 1;
--> statement-breakpoint
INSERT INTO report_month_totals (month, metric, amount_cents, count)
SELECT report_month_of(issued_at), 'billed', sum(total_cents), count(*) FROM invoices WHERE status <> 'void' GROUP BY 1;
--> statement-breakpoint
INSERT INTO report_month_totals (month, metric, product_id, amount_cents)
SELECT report_month_of(i.issued_at), 'product', l.product_id, sum(l.amount_cents)
FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id
WHERE i.status <> 'void' AND l.product_id IS NOT NULL
GROUP BY 1, l.product_id;
