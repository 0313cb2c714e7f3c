CREATE TABLE "insertion_order_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"insertion_order_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"actor_id" uuid,
	"detail" text,
	CONSTRAINT "insertion_order_events_type_check" CHECK ("insertion_order_events"."type" in ('sent','viewed','accepted','declined','superseded'))
);
--> statement-breakpoint
CREATE TABLE "insertion_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contract_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"token" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"content_sha256" text NOT NULL,
	"pdf_key" text NOT NULL,
	"pdf_sha256" text NOT NULL,
	"pdf_bytes" bigint NOT NULL,
	"customer_email" text NOT NULL,
	"sent_by" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"viewed_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"signer_name" text,
	"signer_email" text,
	"signer_ip" text,
	"signer_user_agent" text,
	"signed_pdf_key" text,
	"signed_pdf_sha256" text,
	"signed_pdf_bytes" bigint,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "insertion_orders_token_key" UNIQUE("token"),
	CONSTRAINT "insertion_orders_contract_version_key" UNIQUE("contract_id","version"),
	CONSTRAINT "insertion_orders_status_check" CHECK ("insertion_orders"."status" in ('sent','accepted','declined','superseded')),
	CONSTRAINT "insertion_orders_version_check" CHECK ("insertion_orders"."version" >= 1),
	CONSTRAINT "insertion_orders_accepted_check" CHECK ("insertion_orders"."accepted_at" is null or ("insertion_orders"."signer_name" is not null and "insertion_orders"."signed_pdf_sha256" is not null))
);
--> statement-breakpoint
CREATE TABLE "renewal_holds" (
	"line_id" uuid PRIMARY KEY NOT NULL,
	"contract_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"held_from" date NOT NULL,
	"held_to" date NOT NULL,
	"release_on" date NOT NULL,
	"released_at" timestamp with time zone,
	"release_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_holds_quantity_check" CHECK ("renewal_holds"."quantity" >= 1),
	CONSTRAINT "renewal_holds_range_check" CHECK ("renewal_holds"."held_to" >= "renewal_holds"."held_from")
);
--> statement-breakpoint
CREATE TABLE "renewal_notices" (
	"contract_id" uuid NOT NULL,
	"auto_stop_date" date NOT NULL,
	"days_before" integer NOT NULL,
	"notified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_notices_pkey" PRIMARY KEY("contract_id","auto_stop_date","days_before"),
	CONSTRAINT "renewal_notices_days_check" CHECK ("renewal_notices"."days_before" in (60, 30, 7))
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "renewal_of_id" uuid;--> statement-breakpoint
ALTER TABLE "insertion_order_events" ADD CONSTRAINT "insertion_order_events_insertion_order_id_insertion_orders_id_fk" FOREIGN KEY ("insertion_order_id") REFERENCES "public"."insertion_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insertion_order_events" ADD CONSTRAINT "insertion_order_events_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insertion_order_events" ADD CONSTRAINT "insertion_order_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insertion_orders" ADD CONSTRAINT "insertion_orders_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insertion_orders" ADD CONSTRAINT "insertion_orders_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_holds" ADD CONSTRAINT "renewal_holds_line_id_contract_line_items_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."contract_line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_holds" ADD CONSTRAINT "renewal_holds_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_holds" ADD CONSTRAINT "renewal_holds_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_holds" ADD CONSTRAINT "renewal_holds_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_notices" ADD CONSTRAINT "renewal_notices_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insertion_order_events_io_idx" ON "insertion_order_events" USING btree ("insertion_order_id","at");--> statement-breakpoint
CREATE INDEX "insertion_order_events_contract_idx" ON "insertion_order_events" USING btree ("contract_id","at");--> statement-breakpoint
CREATE INDEX "insertion_orders_pdf_sha_idx" ON "insertion_orders" USING btree ("pdf_sha256");--> statement-breakpoint
CREATE INDEX "insertion_orders_signed_sha_idx" ON "insertion_orders" USING btree ("signed_pdf_sha256");--> statement-breakpoint
CREATE INDEX "renewal_holds_product_idx" ON "renewal_holds" USING btree ("product_id","held_to") WHERE "renewal_holds"."released_at" is null;--> statement-breakpoint
CREATE INDEX "renewal_holds_release_idx" ON "renewal_holds" USING btree ("release_on") WHERE "renewal_holds"."released_at" is null;--> statement-breakpoint
CREATE INDEX "renewal_holds_contract_idx" ON "renewal_holds" USING btree ("contract_id");--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_renewal_of_id_contracts_id_fk" FOREIGN KEY ("renewal_of_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_renewal_of_key" UNIQUE("renewal_of_id");