CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"invoice_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"applied_cents" bigint NOT NULL,
	"to_balance_cents" bigint NOT NULL,
	"created_by" uuid,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number"),
	CONSTRAINT "credit_notes_kind_check" CHECK ("credit_notes"."kind" in ('void','partial','delivery')),
	CONSTRAINT "credit_notes_amounts_check" CHECK ("credit_notes"."amount_cents" > 0 and "credit_notes"."tax_cents" >= 0 and "credit_notes"."tax_cents" <= "credit_notes"."amount_cents" and "credit_notes"."applied_cents" >= 0 and "credit_notes"."to_balance_cents" >= 0 and "credit_notes"."applied_cents" + "credit_notes"."to_balance_cents" = "credit_notes"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "customer_credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"credit_note_id" uuid,
	"invoice_id" uuid,
	"payment_id" uuid,
	"method" text,
	"reference" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_credit_entries_kind_check" CHECK ("customer_credit_entries"."kind" in ('credit','applied','unapplied','refunded')),
	CONSTRAINT "customer_credit_entries_amount_check" CHECK (("customer_credit_entries"."kind" in ('credit','unapplied') and "customer_credit_entries"."amount_cents" > 0) or ("customer_credit_entries"."kind" in ('applied','refunded') and "customer_credit_entries"."amount_cents" < 0))
);
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_amounts_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_method_check";--> statement-breakpoint
ALTER TABLE "commissions" DROP CONSTRAINT "commissions_kind_check";--> statement-breakpoint
ALTER TABLE "commissions" DROP CONSTRAINT "commissions_kind_status_check";--> statement-breakpoint
ALTER TABLE "commissions" DROP CONSTRAINT "commissions_amount_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credited_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "commissions" ADD COLUMN "credit_note_id" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "credit_balance_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit_entries" ADD CONSTRAINT "customer_credit_entries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit_entries" ADD CONSTRAINT "customer_credit_entries_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit_entries" ADD CONSTRAINT "customer_credit_entries_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit_entries" ADD CONSTRAINT "customer_credit_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_credit_entries" ADD CONSTRAINT "customer_credit_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id","issued_at");--> statement-breakpoint
CREATE INDEX "credit_notes_customer_idx" ON "credit_notes" USING btree ("customer_id","issued_at");--> statement-breakpoint
CREATE INDEX "credit_notes_contract_idx" ON "credit_notes" USING btree ("contract_id","issued_at");--> statement-breakpoint
CREATE INDEX "credit_notes_issued_idx" ON "credit_notes" USING btree ("issued_at","id");--> statement-breakpoint
CREATE INDEX "credit_notes_number_search_idx" ON "credit_notes" USING gin (lower("number") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_void_key" ON "credit_notes" USING btree ("invoice_id") WHERE "credit_notes"."kind" = 'void';--> statement-breakpoint
CREATE INDEX "customer_credit_entries_customer_idx" ON "customer_credit_entries" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_credit_entries_payment_key" ON "customer_credit_entries" USING btree ("payment_id","kind") WHERE "customer_credit_entries"."payment_id" is not null;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commissions_credit_note_key" ON "commissions" USING btree ("credit_note_id") WHERE "commissions"."kind" = 'credit';--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."subtotal_cents" >= 0 and "invoices"."tax_cents" >= 0 and "invoices"."total_cents" >= 0 and "invoices"."amount_paid_cents" >= 0 and "invoices"."amount_paid_cents" <= "invoices"."total_cents" and "invoices"."refunded_cents" >= 0 and "invoices"."refunded_cents" <= "invoices"."amount_paid_cents" and "invoices"."credited_cents" >= 0 and "invoices"."credited_cents" <= "invoices"."total_cents");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('card','check','wire','cash','other','credit'));--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_kind_check" CHECK ("commissions"."kind" in ('earned','reversal','credit'));--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_kind_status_check" CHECK (("commissions"."kind" in ('reversal','credit')) = ("commissions"."status" = 'adjusted') and ("commissions"."payout_id" is null) = ("commissions"."status" in ('available','adjusted')));--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_amount_check" CHECK (("commissions"."kind" = 'earned' and "commissions"."amount_cents" > 0) or ("commissions"."kind" in ('reversal','credit') and "commissions"."amount_cents" < 0));--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_credit_balance_check" CHECK ("customers"."credit_balance_cents" >= 0);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('payment_received','payment_failed','contract_activated','contract_expiring','contract_amended','credit_note_issued','payout_requested','payout_approved','payout_rejected','payout_disbursed'));