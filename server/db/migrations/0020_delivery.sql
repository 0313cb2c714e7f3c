CREATE TABLE "line_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contract_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"booked_impressions" bigint NOT NULL,
	"makegood_impressions" bigint DEFAULT 0 NOT NULL,
	"delivered_impressions" bigint NOT NULL,
	"clicks" bigint,
	"shortfall_impressions" bigint DEFAULT 0 NOT NULL,
	"remedy" text,
	"credit_note_id" uuid,
	"makegood_invoice_id" uuid,
	"settled_at" timestamp with time zone,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "line_deliveries_line_period_key" UNIQUE("line_id","period_start"),
	CONSTRAINT "line_deliveries_figures_check" CHECK ("line_deliveries"."booked_impressions" >= 0 and "line_deliveries"."makegood_impressions" >= 0 and "line_deliveries"."makegood_impressions" <= "line_deliveries"."booked_impressions" and "line_deliveries"."delivered_impressions" >= 0 and coalesce("line_deliveries"."clicks", 0) >= 0 and "line_deliveries"."shortfall_impressions" >= 0),
	CONSTRAINT "line_deliveries_remedy_check" CHECK ("line_deliveries"."remedy" is null or "line_deliveries"."remedy" in ('credit','makegood','none')),
	CONSTRAINT "line_deliveries_settled_check" CHECK (("line_deliveries"."settled_at" is null) = ("line_deliveries"."remedy" is null))
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_kind_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "line_id" uuid;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "impressions" bigint;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "under_delivery_remedy" text DEFAULT 'credit' NOT NULL;--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD CONSTRAINT "line_deliveries_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD CONSTRAINT "line_deliveries_line_id_contract_line_items_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."contract_line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD CONSTRAINT "line_deliveries_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD CONSTRAINT "line_deliveries_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD CONSTRAINT "line_deliveries_makegood_invoice_id_invoices_id_fk" FOREIGN KEY ("makegood_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD CONSTRAINT "line_deliveries_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_deliveries_contract_idx" ON "line_deliveries" USING btree ("contract_id","period_start");--> statement-breakpoint
CREATE INDEX "line_deliveries_period_idx" ON "line_deliveries" USING btree ("period_start","booked_impressions","delivered_impressions");--> statement-breakpoint
CREATE INDEX "line_deliveries_makegood_settled_idx" ON "line_deliveries" USING btree ("settled_at","shortfall_impressions") WHERE "line_deliveries"."remedy" = 'makegood';--> statement-breakpoint
CREATE INDEX "line_deliveries_pending_makegood_idx" ON "line_deliveries" USING btree ("contract_id") WHERE "line_deliveries"."remedy" = 'makegood' and "line_deliveries"."makegood_invoice_id" is null;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_line_id_contract_line_items_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."contract_line_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_lines_line_idx" ON "invoice_lines" USING btree ("line_id") WHERE "invoice_lines"."line_id" is not null;--> statement-breakpoint
CREATE INDEX "contracts_short_id_idx" ON "contracts" USING btree (right("id"::text, 8));--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_impressions_check" CHECK (coalesce("invoice_lines"."impressions", 0) >= 0);--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_kind_check" CHECK ("invoice_lines"."kind" in ('product','package','setup_fee','adjustment','makegood'));--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_under_delivery_remedy_check" CHECK ("contracts"."under_delivery_remedy" in ('credit','makegood'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('payment_received','payment_failed','contract_activated','contract_expiring','contract_amended','contract_paused','contract_resumed','credit_note_issued','delivery_under_pace','delivery_remedy','payout_requested','payout_approved','payout_rejected','payout_disbursed'));--> statement-breakpoint
-- Issued invoices: a product line names its contract line where that is unambiguous (one line of that product
-- on the contract), and a CPM line its booked impressions for the days it billed (prorated like its amount).
UPDATE "invoice_lines" il SET "line_id" = li."id"
FROM "invoices" i, "contract_line_items" li
WHERE il."invoice_id" = i."id" AND il."kind" = 'product' AND li."contract_id" = i."contract_id"
  AND li."product_id" = il."product_id"
  AND (SELECT count(*) FROM "contract_line_items" x
       WHERE x."contract_id" = i."contract_id" AND x."product_id" = il."product_id") = 1;--> statement-breakpoint
UPDATE "invoice_lines"
SET "impressions" = CASE WHEN "prorated_days" IS NOT NULL AND "period_days" > 0
  THEN round("quantity"::numeric * 1000 * "prorated_days" / "period_days")::bigint
  ELSE "quantity"::bigint * 1000 END
WHERE "kind" = 'product' AND "price_metric" = 'cpm';