DROP INDEX "report_month_totals_idx";--> statement-breakpoint
ALTER TABLE "report_month_totals" ADD COLUMN "rep_id" uuid;--> statement-breakpoint
CREATE INDEX "report_month_totals_idx" ON "report_month_totals" USING btree ("metric","rep_id","month","product_id");--> statement-breakpoint
-- Every report total is now kept twice: company-wide (rep_id null) and for the contract's sales rep.
-- The functions of 0008 are replaced; their triggers stay.
CREATE OR REPLACE FUNCTION report_totals_payments_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(n.paid_at) AS month, n.contract_id,
           CASE WHEN n.kind = 'refund' THEN -n.amount_cents ELSE n.amount_cents END AS cents
    FROM report_new n WHERE n.status = 'succeeded'
  )
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
  SELECT d.month, 'revenue', NULL, sum(d.cents) FROM d GROUP BY d.month HAVING sum(d.cents) <> 0
  UNION ALL
  SELECT d.month, 'revenue', c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, c.sales_rep_id HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_payments_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(o.paid_at) AS month, o.contract_id,
           CASE WHEN o.kind = 'refund' THEN o.amount_cents ELSE -o.amount_cents END AS cents
    FROM report_old o WHERE o.status = 'succeeded'
  )
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
  SELECT d.month, 'revenue', NULL, sum(d.cents) FROM d GROUP BY d.month HAVING sum(d.cents) <> 0
  UNION ALL
  SELECT d.month, 'revenue', c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, c.sales_rep_id HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_payments_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(n.paid_at) AS month, n.contract_id,
           CASE WHEN n.kind = 'refund' THEN -n.amount_cents ELSE n.amount_cents END AS cents
    FROM report_new n WHERE n.status = 'succeeded'
    UNION ALL
    SELECT report_month_of(o.paid_at), o.contract_id,
           CASE WHEN o.kind = 'refund' THEN o.amount_cents ELSE -o.amount_cents END
    FROM report_old o WHERE o.status = 'succeeded'
  )
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
  SELECT d.month, 'revenue', NULL, sum(d.cents) FROM d GROUP BY d.month HAVING sum(d.cents) <> 0
  UNION ALL
  SELECT d.month, 'revenue', c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, c.sales_rep_id HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_invoices_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(n.issued_at) AS month, n.contract_id, n.total_cents AS cents
    FROM report_new n WHERE n.status <> 'void'
  )
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents, count)
  SELECT d.month, 'billed', NULL, sum(d.cents), count(*) FROM d GROUP BY d.month
  UNION ALL
  SELECT d.month, 'billed', c.sales_rep_id, sum(d.cents), count(*)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, c.sales_rep_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_invoices_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(n.issued_at) AS month, n.contract_id, n.total_cents AS cents, 1 AS n
    FROM report_new n WHERE n.status <> 'void'
    UNION ALL
    SELECT report_month_of(o.issued_at), o.contract_id, -o.total_cents, -1 FROM report_old o WHERE o.status <> 'void'
  )
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents, count)
  SELECT d.month, 'billed', NULL, sum(d.cents), sum(d.n)::int FROM d
  GROUP BY d.month HAVING sum(d.cents) <> 0 OR sum(d.n) <> 0
  UNION ALL
  SELECT d.month, 'billed', c.sales_rep_id, sum(d.cents), sum(d.n)::int
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, c.sales_rep_id HAVING sum(d.cents) <> 0 OR sum(d.n) <> 0;

  WITH changed AS (
    SELECT n.id, n.contract_id, n.status AS new_status, n.issued_at AS new_issued,
           o.status AS old_status, o.issued_at AS old_issued
    FROM report_new n JOIN report_old o ON o.id = n.id
    WHERE (n.status = 'void') <> (o.status = 'void') OR report_month_of(n.issued_at) <> report_month_of(o.issued_at)
  ),
  d AS (
    SELECT report_month_of(ch.new_issued) AS month, ch.contract_id, l.product_id, l.amount_cents AS cents
    FROM changed ch JOIN invoice_lines l ON l.invoice_id = ch.id
    WHERE ch.new_status <> 'void' AND l.product_id IS NOT NULL
    UNION ALL
    SELECT report_month_of(ch.old_issued), ch.contract_id, l.product_id, -l.amount_cents
    FROM changed ch JOIN invoice_lines l ON l.invoice_id = ch.id
    WHERE ch.old_status <> 'void' AND l.product_id IS NOT NULL
  )
  INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents)
  SELECT d.month, 'product', d.product_id, NULL, sum(d.cents) FROM d
  GROUP BY d.month, d.product_id HAVING sum(d.cents) <> 0
  UNION ALL
  SELECT d.month, 'product', d.product_id, c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, d.product_id, c.sales_rep_id HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_invoices_del() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_rep uuid := (SELECT sales_rep_id FROM contracts WHERE id = OLD.contract_id);
BEGIN
  -- BEFORE DELETE, per row: the invoice's lines still exist (they go with it by cascade).
  IF OLD.status = 'void' THEN
    RETURN OLD;
  END IF;
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents, count)
  SELECT report_month_of(OLD.issued_at), 'billed', r.rep, -OLD.total_cents, -1
  FROM (SELECT NULL::uuid AS rep UNION ALL SELECT v_rep WHERE v_rep IS NOT NULL) r;
  INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents)
  SELECT report_month_of(OLD.issued_at), 'product', l.product_id, r.rep, -sum(l.amount_cents)
  FROM invoice_lines l
  CROSS JOIN (SELECT NULL::uuid AS rep UNION ALL SELECT v_rep WHERE v_rep IS NOT NULL) r
  WHERE l.invoice_id = OLD.id AND l.product_id IS NOT NULL
  GROUP BY l.product_id, r.rep;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_lines_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(i.issued_at) AS month, i.contract_id, n.product_id, n.amount_cents AS cents
    FROM report_new n JOIN invoices i ON i.id = n.invoice_id
    WHERE i.status <> 'void' AND n.product_id IS NOT NULL
  )
  INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents)
  SELECT d.month, 'product', d.product_id, NULL, sum(d.cents) FROM d GROUP BY d.month, d.product_id
  UNION ALL
  SELECT d.month, 'product', d.product_id, c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, d.product_id, c.sales_rep_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_lines_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A line whose invoice is gone was subtracted by the invoice's own delete trigger.
  WITH d AS (
    SELECT report_month_of(i.issued_at) AS month, i.contract_id, o.product_id, -o.amount_cents AS cents
    FROM report_old o JOIN invoices i ON i.id = o.invoice_id
    WHERE i.status <> 'void' AND o.product_id IS NOT NULL
  )
  INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents)
  SELECT d.month, 'product', d.product_id, NULL, sum(d.cents) FROM d GROUP BY d.month, d.product_id
  UNION ALL
  SELECT d.month, 'product', d.product_id, c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, d.product_id, c.sales_rep_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_lines_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(i.issued_at) AS month, i.contract_id, n.product_id, n.amount_cents AS cents
    FROM report_new n JOIN invoices i ON i.id = n.invoice_id
    WHERE i.status <> 'void' AND n.product_id IS NOT NULL
    UNION ALL
    SELECT report_month_of(i.issued_at), i.contract_id, o.product_id, -o.amount_cents
    FROM report_old o JOIN invoices i ON i.id = o.invoice_id
    WHERE i.status <> 'void' AND o.product_id IS NOT NULL
  )
  INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents)
  SELECT d.month, 'product', d.product_id, NULL, sum(d.cents) FROM d
  GROUP BY d.month, d.product_id HAVING sum(d.cents) <> 0
  UNION ALL
  SELECT d.month, 'product', d.product_id, c.sales_rep_id, sum(d.cents)
  FROM d JOIN contracts c ON c.id = d.contract_id WHERE c.sales_rep_id IS NOT NULL
  GROUP BY d.month, d.product_id, c.sales_rep_id HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A contract given to another rep takes its whole history along: the old rep's rows lose it, the new
-- rep's gain it. The contract rows are locked FOR UPDATE first, which waits for transactions that are
-- writing payments or invoices of these contracts (their foreign-key checks hold KEY SHARE locks) and
-- holds back new ones until commit, so no delta is counted for the wrong rep.
CREATE FUNCTION report_totals_contracts_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM report_new n JOIN report_old o ON o.id = n.id
                 WHERE n.sales_rep_id IS DISTINCT FROM o.sales_rep_id) THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM contracts c
  WHERE c.id IN (SELECT n.id FROM report_new n JOIN report_old o ON o.id = n.id
                 WHERE n.sales_rep_id IS DISTINCT FROM o.sales_rep_id)
  ORDER BY c.id
  FOR UPDATE;
  WITH moved AS (
    SELECT n.id, r.rep, r.sign
    FROM report_new n JOIN report_old o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES (o.sales_rep_id, -1), (n.sales_rep_id, 1)) AS r(rep, sign)
    WHERE n.sales_rep_id IS DISTINCT FROM o.sales_rep_id AND r.rep IS NOT NULL
  ),
  d AS (
    SELECT report_month_of(p.paid_at) AS month, 'revenue'::text AS metric, NULL::uuid AS product_id, m.rep,
           m.sign * CASE WHEN p.kind = 'refund' THEN -p.amount_cents ELSE p.amount_cents END AS cents, 0 AS n
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
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_totals_rep AFTER UPDATE ON contracts REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_contracts_upd();
--> statement-breakpoint
-- The reps' rows for what was written before this migration.
INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
SELECT report_month_of(p.paid_at), 'revenue', c.sales_rep_id,
       sum(CASE WHEN p.kind = 'refund' THEN -p.amount_cents ELSE p.amount_cents END)
FROM payments p JOIN contracts c ON c.id = p.contract_id
WHERE p.status = 'succeeded' AND c.sales_rep_id IS NOT NULL
GROUP BY 1, c.sales_rep_id;
--> statement-breakpoint
INSERT INTO report_month_totals (month, metric, rep_id, amount_cents, count)
SELECT report_month_of(i.issued_at), 'billed', c.sales_rep_id, sum(i.total_cents), count(*)
FROM invoices i JOIN contracts c ON c.id = i.contract_id
WHERE i.status <> 'void' AND c.sales_rep_id IS NOT NULL
GROUP BY 1, c.sales_rep_id;
--> statement-breakpoint
INSERT INTO report_month_totals (month, metric, product_id, rep_id, amount_cents)
SELECT report_month_of(i.issued_at), 'product', l.product_id, c.sales_rep_id, sum(l.amount_cents)
FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id JOIN contracts c ON c.id = i.contract_id
WHERE i.status <> 'void' AND l.product_id IS NOT NULL AND c.sales_rep_id IS NOT NULL
GROUP BY 1, l.product_id, c.sales_rep_id;
