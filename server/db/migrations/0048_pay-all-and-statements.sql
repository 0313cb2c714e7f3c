CREATE TABLE "agency_statement_runs" (
	"agency_id" uuid NOT NULL,
	"month" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agency_statement_runs_pkey" PRIMARY KEY("agency_id","month")
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ALTER COLUMN "contract_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "payer_id" uuid;--> statement-breakpoint
ALTER TABLE "agency_statement_runs" ADD CONSTRAINT "agency_statement_runs_agency_id_customers_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_payer_id_customers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_payer_idx" ON "checkout_sessions" USING btree ("payer_id","created_at") WHERE "checkout_sessions"."payer_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_agency_issued_idx" ON "invoices" USING btree ("issued_at","bill_to_customer_id","agency_billing_mode","agency_commission_cents","subtotal_cents") WHERE "invoices"."agency_billing_mode" is not null;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_subject_check" CHECK (("checkout_sessions"."contract_id" is null) <> ("checkout_sessions"."payer_id" is null));