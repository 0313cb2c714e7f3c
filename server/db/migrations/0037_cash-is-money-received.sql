-- Cash is money received (decision 048): the report totals' `revenue` metric counts what came in by card,
-- autopay, manual and bank payments, less what was paid back (refunds of payments, and credit balances paid
-- back to customers). A payment the customer's credit balance made (method `credit`: a credit note or an
-- earlier overpayment put to use) moved no money and is not cash, nor is its refund (back to the balance).
-- The triggers of 0008/0011/0024 counted every succeeded payment; these replace their functions (the
-- triggers stay), add the credit balances paid back, and recompute the stored totals.

-- The cash a payments row moved, in cents: + a payment received, - a refund paid out, 0 for a failed
-- attempt or a credit-balance payment (and its refund). The one definition every cash figure is summed with.
CREATE FUNCTION report_cash_cents(kind text, status text, method text, amount_cents bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN status <> 'succeeded' OR method = 'credit' THEN 0::bigint
    WHEN kind = 'refund' THEN -amount_cents
    ELSE amount_cents
  END
$$;
--> statement-breakpoint
-- The cash a customer_credit_entries row moved: a credit balance paid back to the customer ('refunded', its
-- amount already negative) is money out; the other movements of a balance move no money.
CREATE FUNCTION report_credit_cash_cents(kind text, amount_cents bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN kind = 'refunded' THEN amount_cents ELSE 0::bigint END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_totals_payments_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT report_month_of(n.paid_at) AS month, n.contract_id,
           report_cash_cents(n.kind, n.status, n.method, n.amount_cents) AS cents
    FROM report_new n WHERE report_cash_cents(n.kind, n.status, n.method, n.amount_cents) <> 0
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
           -report_cash_cents(o.kind, o.status, o.method, o.amount_cents) AS cents
    FROM report_old o WHERE report_cash_cents(o.kind, o.status, o.method, o.amount_cents) <> 0
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
           report_cash_cents(n.kind, n.status, n.method, n.amount_cents) AS cents
    FROM report_new n WHERE report_cash_cents(n.kind, n.status, n.method, n.amount_cents) <> 0
    UNION ALL
    SELECT report_month_of(o.paid_at), o.contract_id, -report_cash_cents(o.kind, o.status, o.method, o.amount_cents)
    FROM report_old o WHERE report_cash_cents(o.kind, o.status, o.method, o.amount_cents) <> 0
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
-- A credit balance paid back belongs to the customer, not to a contract: it counts company-wide only.
CREATE FUNCTION report_totals_credit_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
  SELECT report_month_of(n.created_at), 'revenue', NULL, sum(report_credit_cash_cents(n.kind, n.amount_cents))
  FROM report_new n WHERE report_credit_cash_cents(n.kind, n.amount_cents) <> 0
  GROUP BY 1 HAVING sum(report_credit_cash_cents(n.kind, n.amount_cents)) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_totals_credit_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
  SELECT report_month_of(o.created_at), 'revenue', NULL, -sum(report_credit_cash_cents(o.kind, o.amount_cents))
  FROM report_old o WHERE report_credit_cash_cents(o.kind, o.amount_cents) <> 0
  GROUP BY 1 HAVING sum(report_credit_cash_cents(o.kind, o.amount_cents)) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_totals_credit_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
  SELECT d.month, 'revenue', NULL, sum(d.cents)
  FROM (
    SELECT report_month_of(n.created_at) AS month, report_credit_cash_cents(n.kind, n.amount_cents) AS cents
    FROM report_new n WHERE report_credit_cash_cents(n.kind, n.amount_cents) <> 0
    UNION ALL
    SELECT report_month_of(o.created_at), -report_credit_cash_cents(o.kind, o.amount_cents)
    FROM report_old o WHERE report_credit_cash_cents(o.kind, o.amount_cents) <> 0
  ) d
  GROUP BY d.month HAVING sum(d.cents) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_totals_ins AFTER INSERT ON customer_credit_entries REFERENCING NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_credit_ins();
--> statement-breakpoint
CREATE TRIGGER report_totals_upd AFTER UPDATE ON customer_credit_entries
  REFERENCING OLD TABLE AS report_old NEW TABLE AS report_new
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_credit_upd();
--> statement-breakpoint
CREATE TRIGGER report_totals_del AFTER DELETE ON customer_credit_entries REFERENCING OLD TABLE AS report_old
  FOR EACH STATEMENT EXECUTE FUNCTION report_totals_credit_del();
--> statement-breakpoint
-- A contract given to another rep takes its history along (0011, made linear in 0024): its cash by the same
-- definition as the payments' triggers.
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
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The stored cash totals, recomputed by the definition above: every `revenue` row (deltas and folded rows)
-- goes, and the company-wide and per-rep totals are written again from the payments and the credit entries.
DELETE FROM report_month_totals WHERE metric = 'revenue';
--> statement-breakpoint
INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
SELECT d.month, 'revenue', NULL, sum(d.cents)
FROM (
  SELECT report_month_of(p.paid_at) AS month, report_cash_cents(p.kind, p.status, p.method, p.amount_cents) AS cents
  FROM payments p WHERE report_cash_cents(p.kind, p.status, p.method, p.amount_cents) <> 0
  UNION ALL
  SELECT report_month_of(e.created_at), report_credit_cash_cents(e.kind, e.amount_cents)
  FROM customer_credit_entries e WHERE report_credit_cash_cents(e.kind, e.amount_cents) <> 0
) d
GROUP BY d.month HAVING sum(d.cents) <> 0;
--> statement-breakpoint
INSERT INTO report_month_totals (month, metric, rep_id, amount_cents)
SELECT report_month_of(p.paid_at), 'revenue', c.sales_rep_id,
       sum(report_cash_cents(p.kind, p.status, p.method, p.amount_cents))
FROM payments p JOIN contracts c ON c.id = p.contract_id
WHERE report_cash_cents(p.kind, p.status, p.method, p.amount_cents) <> 0 AND c.sales_rep_id IS NOT NULL
GROUP BY 1, c.sales_rep_id
HAVING sum(report_cash_cents(p.kind, p.status, p.method, p.amount_cents)) <> 0;
