CREATE TABLE "commissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rep_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"rate_bp" integer NOT NULL,
	"base_cents" bigint NOT NULL,
	"payout_id" uuid,
	"split_from" uuid,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commissions_kind_check" CHECK ("commissions"."kind" in ('earned','reversal')),
	CONSTRAINT "commissions_status_check" CHECK ("commissions"."status" in ('available','requested','disbursed','adjusted')),
	CONSTRAINT "commissions_kind_status_check" CHECK (("commissions"."kind" = 'reversal') = ("commissions"."status" = 'adjusted') and ("commissions"."payout_id" is null) = ("commissions"."status" in ('available','adjusted'))),
	CONSTRAINT "commissions_amount_check" CHECK (("commissions"."kind" = 'earned' and "commissions"."amount_cents" > 0) or ("commissions"."kind" = 'reversal' and "commissions"."amount_cents" < 0))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rep_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_cents" bigint NOT NULL,
	"approved_cents" bigint,
	"reject_reason" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"disbursed_at" timestamp with time zone,
	"disbursed_by" uuid,
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('pending','approved','disbursed','rejected')),
	CONSTRAINT "payouts_amounts_check" CHECK ("payouts"."requested_cents" > 0 and ("payouts"."approved_cents" is null or ("payouts"."approved_cents" > 0 and "payouts"."approved_cents" <= "payouts"."requested_cents")))
);
--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_rep_id_users_id_fk" FOREIGN KEY ("rep_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_rep_id_users_id_fk" FOREIGN KEY ("rep_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_disbursed_by_users_id_fk" FOREIGN KEY ("disbursed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commissions_invoice_earned_key" ON "commissions" USING btree ("invoice_id") WHERE "commissions"."kind" = 'earned' and "commissions"."split_from" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "commissions_invoice_reversal_key" ON "commissions" USING btree ("invoice_id") WHERE "commissions"."kind" = 'reversal';--> statement-breakpoint
CREATE INDEX "commissions_rep_status_idx" ON "commissions" USING btree ("rep_id","status","earned_at","id");--> statement-breakpoint
CREATE INDEX "commissions_rep_earned_idx" ON "commissions" USING btree ("rep_id","earned_at","id");--> statement-breakpoint
CREATE INDEX "commissions_status_idx" ON "commissions" USING btree ("status","earned_at","id");--> statement-breakpoint
CREATE INDEX "commissions_earned_idx" ON "commissions" USING btree ("earned_at","id");--> statement-breakpoint
CREATE INDEX "commissions_invoice_idx" ON "commissions" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "commissions_payout_idx" ON "commissions" USING btree ("payout_id");--> statement-breakpoint
CREATE INDEX "payouts_rep_idx" ON "payouts" USING btree ("rep_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status","requested_at","id");--> statement-breakpoint
CREATE INDEX "payouts_requested_idx" ON "payouts" USING btree ("requested_at","id");