CREATE TABLE "deal_lines" (
	"deal_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	CONSTRAINT "deal_lines_pkey" PRIMARY KEY("deal_id","position"),
	CONSTRAINT "deal_lines_quantity_check" CHECK ("deal_lines"."quantity" >= 1),
	CONSTRAINT "deal_lines_price_check" CHECK ("deal_lines"."unit_price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"title" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"stage_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"expected_close_date" date,
	"flight_start" date,
	"flight_end" date,
	"probability" integer,
	"source" text NOT NULL,
	"lost_reason" text,
	"next_step" text,
	"contract_id" uuid,
	"renewal_of_contract_id" uuid,
	"renewal_end_date" date,
	"version" integer DEFAULT 1 NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deals_amount_check" CHECK ("deals"."amount_cents" >= 0),
	CONSTRAINT "deals_probability_check" CHECK ("deals"."probability" is null or "deals"."probability" between 0 and 100),
	CONSTRAINT "deals_source_check" CHECK ("deals"."source" in ('inbound', 'outbound', 'referral', 'renewal')),
	CONSTRAINT "deals_flight_check" CHECK ("deals"."flight_end" is null or "deals"."flight_start" is null or "deals"."flight_end" >= "deals"."flight_start")
);
--> statement-breakpoint
CREATE TABLE "pipeline_stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"probability" integer NOT NULL,
	"kind" text NOT NULL,
	"milestone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipeline_stages_probability_check" CHECK ("pipeline_stages"."probability" between 0 and 100),
	CONSTRAINT "pipeline_stages_kind_check" CHECK ("pipeline_stages"."kind" in ('open', 'won', 'lost')),
	CONSTRAINT "pipeline_stages_milestone_check" CHECK ("pipeline_stages"."milestone" is null or ("pipeline_stages"."kind" = 'open' and "pipeline_stages"."milestone" in ('contract_drafted', 'contract_sent')))
);
--> statement-breakpoint
ALTER TABLE "deal_lines" ADD CONSTRAINT "deal_lines_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_lines" ADD CONSTRAINT "deal_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_stage_id_pipeline_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."pipeline_stages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_renewal_of_contract_id_contracts_id_fk" FOREIGN KEY ("renewal_of_contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_lines_product_idx" ON "deal_lines" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deals_contract_key" ON "deals" USING btree ("contract_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deals_renewal_key" ON "deals" USING btree ("renewal_of_contract_id","renewal_end_date");--> statement-breakpoint
CREATE INDEX "deals_stage_idx" ON "deals" USING btree ("stage_id","updated_at");--> statement-breakpoint
CREATE INDEX "deals_owner_stage_idx" ON "deals" USING btree ("owner_id","stage_id","updated_at");--> statement-breakpoint
CREATE INDEX "deals_close_idx" ON "deals" USING btree ("expected_close_date");--> statement-breakpoint
CREATE INDEX "deals_customer_idx" ON "deals" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "deals_search_idx" ON "deals" USING gin (lower("title") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "pipeline_stages_milestone_key" ON "pipeline_stages" USING btree ("milestone");--> statement-breakpoint
CREATE INDEX "customers_stripe_customer_idx" ON "customers" USING btree ("stripe_customer_id") WHERE "customers"."stripe_customer_id" is not null;--> statement-breakpoint
INSERT INTO "pipeline_stages" ("name", "position", "probability", "kind", "milestone") VALUES
	('Lead', 0, 10, 'open', NULL),
	('Qualified', 1, 25, 'open', NULL),
	('Proposal', 2, 50, 'open', 'contract_drafted'),
	('IO sent', 3, 75, 'open', 'contract_sent'),
	('Won', 4, 100, 'won', NULL),
	('Lost', 5, 0, 'lost', NULL);
