CREATE TABLE "report_due_totals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"due_date" date NOT NULL,
	"rep_id" uuid,
	"invoices" integer DEFAULT 0 NOT NULL,
	"due_cents" bigint NOT NULL,
	"collected_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_due_totals_idx" ON "report_due_totals" USING btree ("rep_id","due_date");--> statement-breakpoint
-- The collection rate's totals (decision 049), kept per due date by triggers like the monthly totals of 0008:
-- insert-only delta rows, company-wide (rep_id NULL) and for the contract's rep, folded by compactReportTotals().

-- What fell due on an invoice: its total net of credit notes (a void invoice: nothing).
CREATE FUNCTION report_due_cents(status text, total_cents bigint, credited_cents bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status = 'void' THEN 0::bigint ELSE greatest(total_cents - credited_cents, 0) END
$$;
--> statement-breakpoint
-- What of it is collected: paid net of refunds, never more than what fell due (a paid invoice credited
-- afterwards gave the credit to the customer's balance; its invoice counts as collected in full).
CREATE FUNCTION report_collected_cents(status text, total_cents bigint, credited_cents bigint, paid_cents bigint,
                                       refunded_cents bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT least(greatest(paid_cents - refunded_cents, 0), report_due_cents(status, total_cents, credited_cents))
$$;
--> statement-breakpoint
CREATE FUNCTION report_due_invoices_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT n.due_date, n.contract_id, 1 AS cnt,
           report_due_cents(n.status, n.total_cents, n.credited_cents) AS due,
           report_collected_cents(n.status, n.total_cents, n.credited_cents, n.amount_paid_cents, n.refunded_cents) AS collected
    FROM report_new n WHERE report_due_cents(n.status, n.total_cents, n.credited_cents) > 0
  )
  INSERT INTO report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
  SELECT d.due_date, NULL, sum(d.cnt), sum(d.due), sum(d.collected) FROM d GROUP BY d.due_date
  UNION ALL
  SELECT d.due_date, c.sales_rep_id, sum(d.cnt), sum(d.due), sum(d.collected)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.due_date, c.sales_rep_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_due_invoices_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT o.due_date, o.contract_id, -1 AS cnt,
           -report_due_cents(o.status, o.total_cents, o.credited_cents) AS due,
           -report_collected_cents(o.status, o.total_cents, o.credited_cents, o.amount_paid_cents, o.refunded_cents) AS collected
    FROM report_old o WHERE report_due_cents(o.status, o.total_cents, o.credited_cents) > 0
  )
  INSERT INTO report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
  SELECT d.due_date, NULL, sum(d.cnt), sum(d.due), sum(d.collected) FROM d GROUP BY d.due_date
  UNION ALL
  SELECT d.due_date, c.sales_rep_id, sum(d.cnt), sum(d.due), sum(d.collected)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.due_date, c.sales_rep_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update moves the totals when a payment, refund, credit note or void changes what is due or collected, or
-- the due date moves; any other update nets to nothing and writes no row.
CREATE FUNCTION report_due_invoices_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT n.due_date, n.contract_id, 1 AS cnt,
           report_due_cents(n.status, n.total_cents, n.credited_cents) AS due,
           report_collected_cents(n.status, n.total_cents, n.credited_cents, n.amount_paid_cents, n.refunded_cents) AS collected
    FROM report_new n WHERE report_due_cents(n.status, n.total_cents, n.credited_cents) > 0
    UNION ALL
    SELECT o.due_date, o.contract_id, -1,
           -report_due_cents(o.status, o.total_cents, o.credited_cents),
           -report_collected_cents(o.status, o.total_cents, o.credited_cents, o.amount_paid_cents, o.refunded_cents)
    FROM report_old o WHERE report_due_cents(o.status, o.total_cents, o.credited_cents) > 0
  )
  INSERT INTO report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
  SELECT d.due_date, NULL, sum(d.cnt), sum(d.due), sum(d.collected) FROM d GROUP BY d.due_date
  HAVING sum(d.cnt) <> 0 OR sum(d.due) <> 0 OR sum(d.collected) <> 0
  UNION ALL
  SELECT d.due_date, c.sales_rep_id, sum(d.cnt), sum(d.due), sum(d.collected)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.due_date, c.sales_rep_id
  HAVING sum(d.cnt) <> 0 OR sum(d.due) <> 0 OR sum(d.collected) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_due_ins AFTER INSERT ON invoices REFERENCING NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_due_invoices_ins();
--> statement-breakpoint
CREATE TRIGGER report_due_upd AFTER UPDATE ON invoices REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_due_invoices_upd();
--> statement-breakpoint
CREATE TRIGGER report_due_del AFTER DELETE ON invoices REFERENCING OLD TABLE AS report_old
  FOR EACH STATEMENT EXECUTE FUNCTION report_due_invoices_del();
--> statement-breakpoint
-- A contract given to another rep takes its history along (0011, 0024, 0037), its invoices' due totals too.
CREATE OR REPLACE FUNCTION report_totals_contracts_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT n.id, n.sales_rep_id FROM report_new n EXCEPT SELECT o.id, o.sales_rep_id FROM report_old o) THEN
    RETURN NULL;
  END IF;
  -- A contract given to another rep takes its whole history along: the old rep's rows lose it, the new
  -- rep's gain it. The contract rows are locked FOR UPDATE first, which waits for transactions that are
  -- writing payments or invoices of these contracts (their foreign-key checks hold KEY SHARE locks) and
  -- holds back new ones until commit, so no delta is counted for the wrong rep.
  PERFORM 1 FROM contracts c
  WHERE c.id IN (SELECT g.id FROM (SELECT n.id, n.sales_rep_id FROM report_new n
                                   EXCEPT SELECT o.id, o.sales_rep_id FROM report_old o) g)
  ORDER BY c.id
  FOR UPDATE;
  WITH moved AS (
    SELECT g.id, g.sales_rep_id AS rep, 1 AS sign FROM (
      SELECT n.id, n.sales_rep_id FROM report_new n EXCEPT SELECT o.id, o.sales_rep_id FROM report_old o
    ) g WHERE g.sales_rep_id IS NOT NULL
    UNION ALL
    SELECT l.id, l.sales_rep_id, -1 FROM (
      SELECT o.id, o.sales_rep_id FROM report_old o EXCEPT SELECT n.id, n.sales_rep_id FROM report_new n
    ) l WHERE l.sales_rep_id IS NOT NULL
  ),
  d AS (
    SELECT report_month_of(p.paid_at) AS month, 'revenue'::text AS metric, NULL::uuid AS product_id, m.rep,
           m.sign * report_cash_cents(p.kind, p.status, p.method, p.amount_cents) AS cents, 0 AS n
    FROM moved m JOIN payments p ON p.contract_id = m.id AND p.status = 'succeeded'
    UNION ALL
    SELECT report_month_of(i.issued_at), 'billed', NULL, m.rep, m.sign * i.total_cents, m.sign
    FROM moved m JOIN invoices i ON i.contract_id = m.id AND i.status <> 'void'
    UNION ALL
    SELECT report_month_of(i.issued_at), 'product', l.product_id, m.rep, m.sign * l.amount_cents, 0
    FROM moved m JOIN invoices i ON i.contract_id = m.id AND i.status <> 'void'
    JOIN invoice_lines l ON l.invoice_id = i.id AND l.product_id IS NOT NULL
  )
  INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents, count)
  SELECT d.month, d.metric, d.product_id, d.rep, sum(d.cents), sum(d.n)::int FROM d
  GROUP BY d.month, d.metric, d.product_id, d.rep
  HAVING sum(d.cents) <> 0 OR sum(d.n) <> 0;
  -- The same contracts' due totals (the collection rate).
  WITH moved AS (
    SELECT g.id, g.sales_rep_id AS rep, 1 AS sign FROM (
      SELECT n.id, n.sales_rep_id FROM report_new n EXCEPT SELECT o.id, o.sales_rep_id FROM report_old o
    ) g WHERE g.sales_rep_id IS NOT NULL
    UNION ALL
    SELECT l.id, l.sales_rep_id, -1 FROM (
      SELECT o.id, o.sales_rep_id FROM report_old o EXCEPT SELECT n.id, n.sales_rep_id FROM report_new n
    ) l WHERE l.sales_rep_id IS NOT NULL
  )
  INSERT INTO report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
  SELECT i.due_date, m.rep, sum(m.sign),
         sum(m.sign * report_due_cents(i.status, i.total_cents, i.credited_cents)),
         sum(m.sign * report_collected_cents(i.status, i.total_cents, i.credited_cents, i.amount_paid_cents,
                                             i.refunded_cents))
  FROM moved m JOIN invoices i ON i.contract_id = m.id
  WHERE report_due_cents(i.status, i.total_cents, i.credited_cents) > 0
  GROUP BY i.due_date, m.rep
  HAVING sum(m.sign) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Invoices written before this migration.
INSERT INTO report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
SELECT i.due_date, NULL, count(*), sum(report_due_cents(i.status, i.total_cents, i.credited_cents)),
       sum(report_collected_cents(i.status, i.total_cents, i.credited_cents, i.amount_paid_cents, i.refunded_cents))
FROM invoices i WHERE report_due_cents(i.status, i.total_cents, i.credited_cents) > 0
GROUP BY i.due_date;
--> statement-breakpoint
INSERT INTO report_due_totals (due_date, rep_id, invoices, due_cents, collected_cents)
SELECT i.due_date, c.sales_rep_id, count(*), sum(report_due_cents(i.status, i.total_cents, i.credited_cents)),
       sum(report_collected_cents(i.status, i.total_cents, i.credited_cents, i.amount_paid_cents, i.refunded_cents))
FROM invoices i JOIN contracts c ON c.id = i.contract_id
WHERE report_due_cents(i.status, i.total_cents, i.credited_cents) > 0 AND c.sales_rep_id IS NOT NULL
GROUP BY i.due_date, c.sales_rep_id;
