CREATE TABLE "autopay_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"attempt_number" smallint NOT NULL,
	"payment_method_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decline_kind" text,
	"decline_code" text,
	"reason" text,
	"provider_payment_id" text,
	"payment_id" uuid,
	"requested_by" uuid,
	"series_started_on" date NOT NULL,
	"retry_on" date,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "autopay_attempts_invoice_attempt_key" UNIQUE("invoice_id","attempt_number"),
	CONSTRAINT "autopay_attempts_status_check" CHECK ("autopay_attempts"."status" in ('pending','succeeded','failed','requires_action','skipped')),
	CONSTRAINT "autopay_attempts_decline_check" CHECK ("autopay_attempts"."decline_kind" is null or "autopay_attempts"."decline_kind" in ('soft','hard','authentication')),
	CONSTRAINT "autopay_attempts_amount_check" CHECK ("autopay_attempts"."amount_cents" >= 0),
	CONSTRAINT "autopay_attempts_number_check" CHECK ("autopay_attempts"."attempt_number" >= 1)
);
--> statement-breakpoint
CREATE TABLE "builtin_charges" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"provider_payment_id" text NOT NULL,
	"provider_method_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"outcome" text NOT NULL,
	"decline_code" text,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "builtin_charges_outcome_check" CHECK ("builtin_charges"."outcome" in ('succeeded','declined','requires_action'))
);
--> statement-breakpoint
CREATE TABLE "builtin_saved_cards" (
	"provider_method_id" text PRIMARY KEY NOT NULL,
	"behaviour" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "builtin_saved_cards_behaviour_check" CHECK ("builtin_saved_cards"."behaviour" in ('succeeds','declines','insufficient_funds','expired','authentication'))
);
--> statement-breakpoint
CREATE TABLE "payment_method_notices" (
	"payment_method_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_method_notices_key" UNIQUE("payment_method_id","kind"),
	CONSTRAINT "payment_method_notices_kind_check" CHECK ("payment_method_notices"."kind" in ('expiring_30','expiring_7'))
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_customer_id" text,
	"provider_method_id" text NOT NULL,
	"kind" text DEFAULT 'card' NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" smallint,
	"exp_year" smallint,
	"fingerprint" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"consent_text" text NOT NULL,
	"consent_user_id" uuid,
	"consent_name" text NOT NULL,
	"consent_email" text,
	"consent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"consent_ip" text,
	"consent_user_agent" text,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "payment_methods_provider_method_key" UNIQUE("provider","provider_method_id"),
	CONSTRAINT "payment_methods_kind_check" CHECK ("payment_methods"."kind" in ('card','us_bank_account')),
	CONSTRAINT "payment_methods_status_check" CHECK ("payment_methods"."status" in ('active','expired','failed')),
	CONSTRAINT "payment_methods_source_check" CHECK ("payment_methods"."source" in ('checkout','portal','setup_link'))
);
--> statement-breakpoint
CREATE TABLE "payment_setup_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_setup_links_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "payment_setup_links_purpose_check" CHECK ("payment_setup_links"."purpose" in ('email','portal'))
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_method_check";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "autopay_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD CONSTRAINT "autopay_attempts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD CONSTRAINT "autopay_attempts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD CONSTRAINT "autopay_attempts_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD CONSTRAINT "autopay_attempts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_attempts" ADD CONSTRAINT "autopay_attempts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_notices" ADD CONSTRAINT "payment_method_notices_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_consent_user_id_users_id_fk" FOREIGN KEY ("consent_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_setup_links" ADD CONSTRAINT "payment_setup_links_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_setup_links" ADD CONSTRAINT "payment_setup_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "autopay_attempts_customer_idx" ON "autopay_attempts" USING btree ("customer_id","attempted_at");--> statement-breakpoint
CREATE INDEX "autopay_attempts_retry_idx" ON "autopay_attempts" USING btree ("retry_on") WHERE "autopay_attempts"."retry_on" is not null;--> statement-breakpoint
CREATE INDEX "payment_methods_customer_idx" ON "payment_methods" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_one_default_idx" ON "payment_methods" USING btree ("customer_id") WHERE "payment_methods"."is_default" and "payment_methods"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "payment_methods_expiry_idx" ON "payment_methods" USING btree ("exp_year","exp_month") WHERE "payment_methods"."removed_at" is null and "payment_methods"."status" = 'active';--> statement-breakpoint
CREATE INDEX "payment_setup_links_customer_idx" ON "payment_setup_links" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_autopay_idx" ON "customers" USING btree ("id") WHERE "customers"."autopay_enabled";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('card','card_on_file','bank_debit','check','wire','cash','other','credit'));