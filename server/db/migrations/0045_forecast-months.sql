CREATE TABLE "forecast_marks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" uuid,
	"deal_id" uuid,
	"everyone" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forecast_months" (
	"rep_id" uuid NOT NULL,
	"month" date NOT NULL,
	"booked_cents" bigint NOT NULL,
	"weighted_cents" bigint NOT NULL,
	"pipeline_cents" bigint NOT NULL,
	CONSTRAINT "forecast_months_pkey" PRIMARY KEY("rep_id","month")
);
--> statement-breakpoint
CREATE TABLE "forecast_sources" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" uuid,
	"deal_id" uuid,
	"rep_id" uuid NOT NULL,
	"booked" bigint[],
	"weighted" bigint[],
	"pipeline" bigint[],
	CONSTRAINT "forecast_sources_contract_key" UNIQUE("contract_id"),
	CONSTRAINT "forecast_sources_deal_key" UNIQUE("deal_id"),
	CONSTRAINT "forecast_sources_one_source" CHECK (("forecast_sources"."contract_id" is null) <> ("forecast_sources"."deal_id" is null))
);
--> statement-breakpoint
CREATE TABLE "forecast_window" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"from_month" date NOT NULL,
	CONSTRAINT "forecast_window_one_row" CHECK ("forecast_window"."id")
);
--> statement-breakpoint
-- The contracts and deals whose forecast figures a change makes out of date (decision 059): statement-level
-- triggers with transition tables, insert-only. Contracts: the columns the billing schedule or the booked set
-- read (status, rep, start and auto-stop dates, package and its price, setup fee); their lines and insertion
-- orders, any change. Deals: owner, stage, amount, probability, flight and close date.
CREATE FUNCTION forecast_mark_contracts_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (contract_id) SELECT n.id FROM forecast_new n WHERE n.status IN ('sent','active');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION forecast_mark_contracts_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (contract_id)
  SELECT n.id FROM forecast_new n JOIN forecast_old o ON o.id = n.id
  WHERE (o.status IN ('sent','active') OR n.status IN ('sent','active'))
    AND (n.status, n.sales_rep_id, n.start_date, n.auto_stop_date, n.package_id, n.package_price_cents,
         n.setup_fee_cents)
        IS DISTINCT FROM
        (o.status, o.sales_rep_id, o.start_date, o.auto_stop_date, o.package_id, o.package_price_cents,
         o.setup_fee_cents);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION forecast_mark_contracts_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (contract_id) SELECT o.id FROM forecast_old o WHERE o.status IN ('sent','active');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER forecast_mark_ins AFTER INSERT ON contracts REFERENCING NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contracts_new();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_upd AFTER UPDATE ON contracts REFERENCING OLD TABLE AS forecast_old NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contracts_upd();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_del AFTER DELETE ON contracts REFERENCING OLD TABLE AS forecast_old
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contracts_old();
--> statement-breakpoint
CREATE FUNCTION forecast_mark_contract_rows_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (contract_id) SELECT DISTINCT n.contract_id FROM forecast_new n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION forecast_mark_contract_rows_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (contract_id) SELECT DISTINCT o.contract_id FROM forecast_old o;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER forecast_mark_ins AFTER INSERT ON contract_line_items REFERENCING NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contract_rows_new();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_upd AFTER UPDATE ON contract_line_items REFERENCING NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contract_rows_new();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_del AFTER DELETE ON contract_line_items REFERENCING OLD TABLE AS forecast_old
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contract_rows_old();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_ins AFTER INSERT ON insertion_orders REFERENCING NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contract_rows_new();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_upd AFTER UPDATE ON insertion_orders REFERENCING NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contract_rows_new();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_del AFTER DELETE ON insertion_orders REFERENCING OLD TABLE AS forecast_old
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_contract_rows_old();
--> statement-breakpoint
CREATE FUNCTION forecast_mark_deals_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (deal_id) SELECT n.id FROM forecast_new n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION forecast_mark_deals_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (deal_id)
  SELECT n.id FROM forecast_new n JOIN forecast_old o ON o.id = n.id
  WHERE (n.owner_id, n.stage_id, n.amount_cents, n.probability, n.flight_start, n.flight_end, n.expected_close_date)
        IS DISTINCT FROM
        (o.owner_id, o.stage_id, o.amount_cents, o.probability, o.flight_start, o.flight_end, o.expected_close_date);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION forecast_mark_deals_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_marks (deal_id) SELECT o.id FROM forecast_old o;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER forecast_mark_ins AFTER INSERT ON deals REFERENCING NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_deals_new();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_upd AFTER UPDATE ON deals REFERENCING OLD TABLE AS forecast_old NEW TABLE AS forecast_new
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_deals_upd();
--> statement-breakpoint
CREATE TRIGGER forecast_mark_del AFTER DELETE ON deals REFERENCING OLD TABLE AS forecast_old
  FOR EACH STATEMENT EXECUTE FUNCTION forecast_mark_deals_old();
--> statement-breakpoint
-- A stage's default probability or kind changed: its deals' weighted amounts (or whether they count) may move.
CREATE FUNCTION forecast_mark_stages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.probability IS DISTINCT FROM OLD.probability OR NEW.kind IS DISTINCT FROM OLD.kind THEN
    INSERT INTO forecast_marks (deal_id) SELECT d.id FROM deals d WHERE d.stage_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER forecast_mark_stages AFTER UPDATE ON pipeline_stages
  FOR EACH ROW EXECUTE FUNCTION forecast_mark_stages();
--> statement-breakpoint
-- The contract settings decide whether billing stops at the auto-stop date: a change of that one marks everyone.
CREATE FUNCTION forecast_mark_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP = 'INSERT' AND NEW.key = 'contracts')
     OR (TG_OP = 'DELETE' AND OLD.key = 'contracts')
     OR (TG_OP = 'UPDATE' AND (NEW.key = 'contracts' OR OLD.key = 'contracts')
         AND NEW.value -> 'pausePaymentsAfterExpiry' IS DISTINCT FROM OLD.value -> 'pausePaymentsAfterExpiry') THEN
    INSERT INTO forecast_marks (everyone) VALUES (true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER forecast_mark_settings AFTER INSERT OR UPDATE OR DELETE ON app_settings
  FOR EACH ROW EXECUTE FUNCTION forecast_mark_settings();
--> statement-breakpoint
-- Nothing is stored yet: the first forecast computes everything.
INSERT INTO forecast_marks (everyone) VALUES (true);
