CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"body" text,
	"due_at" timestamp with time zone,
	"duration_minutes" integer,
	"outcome" text,
	"done" boolean DEFAULT false NOT NULL,
	"done_at" timestamp with time zone,
	"customer_id" uuid NOT NULL,
	"deal_id" uuid,
	"contact_id" uuid,
	"owner_id" uuid NOT NULL,
	"remind_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_type_check" CHECK ("activities"."type" in ('call', 'meeting', 'email', 'task', 'note')),
	CONSTRAINT "activities_duration_check" CHECK ("activities"."duration_minutes" is null or "activities"."duration_minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"role" text,
	"email" text,
	"phone" text,
	"notes" text,
	"is_primary" boolean DEFAULT false NOT NULL,
	"is_billing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contacts_billing_email_check" CHECK (not "contacts"."is_billing" or "contacts"."email" is not null)
);
--> statement-breakpoint
CREATE TABLE "forecast_targets" (
	"owner_id" uuid NOT NULL,
	"month" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forecast_targets_pkey" PRIMARY KEY("owner_id","month"),
	CONSTRAINT "forecast_targets_amount_check" CHECK ("forecast_targets"."amount_cents" >= 0),
	CONSTRAINT "forecast_targets_month_check" CHECK (extract(day from "forecast_targets"."month") = 1)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forecast_targets" ADD CONSTRAINT "forecast_targets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forecast_targets" ADD CONSTRAINT "forecast_targets_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_owner_due_idx" ON "activities" USING btree ("owner_id","done","due_at");--> statement-breakpoint
CREATE INDEX "activities_customer_idx" ON "activities" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "activities_deal_idx" ON "activities" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "activities_remind_idx" ON "activities" USING btree ("remind_at") WHERE "activities"."reminded_at" is null and not "activities"."done";--> statement-breakpoint
CREATE INDEX "contacts_customer_idx" ON "contacts" USING btree ("customer_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_primary_key" ON "contacts" USING btree ("customer_id") WHERE "contacts"."is_primary";--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_billing_key" ON "contacts" USING btree ("customer_id") WHERE "contacts"."is_billing";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('payment_received','payment_failed','contract_activated','contract_expiring','contract_amended','contract_paused','contract_resumed','credit_note_issued','delivery_under_pace','delivery_remedy','inventory_hold_expired','payout_requested','payout_approved','payout_rejected','payout_disbursed','webhook_disabled','io_accepted','io_declined','activity_due'));