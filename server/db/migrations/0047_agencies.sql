CREATE TABLE "customer_agencies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"advertiser_id" uuid NOT NULL,
	"agency_id" uuid NOT NULL,
	"commission_bp" integer NOT NULL,
	"billing_mode" text NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_agencies_commission_check" CHECK ("customer_agencies"."commission_bp" between 0 and 10000),
	CONSTRAINT "customer_agencies_mode_check" CHECK ("customer_agencies"."billing_mode" in ('net','gross')),
	CONSTRAINT "customer_agencies_dates_check" CHECK ("customer_agencies"."to_date" is null or "customer_agencies"."to_date" >= "customer_agencies"."from_date"),
	CONSTRAINT "customer_agencies_not_self_check" CHECK ("customer_agencies"."advertiser_id" <> "customer_agencies"."agency_id")
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_kind_check";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "bill_to_customer_id" uuid;--> statement-breakpoint
UPDATE "invoices" SET "bill_to_customer_id" = "customer_id";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "bill_to_customer_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "agency_commission_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "agency_billing_mode" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "bill_to_customer_id" uuid;--> statement-breakpoint
UPDATE "contracts" SET "bill_to_customer_id" = "customer_id";--> statement-breakpoint
ALTER TABLE "contracts" ALTER COLUMN "bill_to_customer_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "agency_commission_bp" integer;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "agency_billing_mode" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "kind" text DEFAULT 'advertiser' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "agency_commission_bp" integer;--> statement-breakpoint
ALTER TABLE "customer_agencies" ADD CONSTRAINT "customer_agencies_advertiser_id_customers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_agencies" ADD CONSTRAINT "customer_agencies_agency_id_customers_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_agencies_advertiser_idx" ON "customer_agencies" USING btree ("advertiser_id","from_date");--> statement-breakpoint
CREATE INDEX "customer_agencies_agency_idx" ON "customer_agencies" USING btree ("agency_id","advertiser_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_bill_to_customer_id_customers_id_fk" FOREIGN KEY ("bill_to_customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_bill_to_customer_id_customers_id_fk" FOREIGN KEY ("bill_to_customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_bill_to_idx" ON "invoices" USING btree ("bill_to_customer_id","issued_at");--> statement-breakpoint
CREATE INDEX "contracts_bill_to_idx" ON "contracts" USING btree ("bill_to_customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "customers_agencies_idx" ON "customers" USING btree ("name","id") WHERE "customers"."kind" = 'agency';--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_kind_check" CHECK ("invoice_lines"."kind" in ('product','package','setup_fee','adjustment','makegood','agency_commission'));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_agency_check" CHECK (("invoices"."agency_billing_mode" is null and "invoices"."agency_commission_cents" = 0) or ("invoices"."agency_billing_mode" in ('net','gross') and "invoices"."agency_commission_cents" >= 0));--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_agency_terms_check" CHECK (("contracts"."agency_commission_bp" is null and "contracts"."agency_billing_mode" is null) or ("contracts"."bill_to_customer_id" <> "contracts"."customer_id" and "contracts"."agency_commission_bp" between 0 and 10000 and "contracts"."agency_billing_mode" in ('net','gross')));--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_kind_check" CHECK ("customers"."kind" in ('advertiser','agency'));--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_agency_commission_check" CHECK ("customers"."agency_commission_bp" is null or ("customers"."kind" = 'agency' and "customers"."agency_commission_bp" between 0 and 10000));--> statement-breakpoint
-- One agency of record at a time per advertiser: two periods of one advertiser never overlap (to_date
-- inclusive, null: open-ended).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "customer_agencies" ADD CONSTRAINT "customer_agencies_no_overlap"
  EXCLUDE USING gist ("advertiser_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&);--> statement-breakpoint
-- A contract's bill-to: the customer unless the writer names another (the services name the agency of record).
CREATE FUNCTION contracts_bill_to_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.bill_to_customer_id := coalesce(NEW.bill_to_customer_id, NEW.customer_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contracts_bill_to_default BEFORE INSERT ON contracts
  FOR EACH ROW EXECUTE FUNCTION contracts_bill_to_default();
--> statement-breakpoint
-- An invoice is addressed to its contract's bill-to, whatever the writer says.
CREATE FUNCTION invoices_bill_to_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.bill_to_customer_id INTO NEW.bill_to_customer_id FROM contracts c WHERE c.id = NEW.contract_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER invoices_bill_to_set BEFORE INSERT ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_bill_to_set();

