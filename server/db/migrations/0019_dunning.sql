CREATE TABLE "dunning_steps" (
	"invoice_id" uuid NOT NULL,
	"step" text NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dunning_steps_invoice_id_step_pk" PRIMARY KEY("invoice_id","step"),
	CONSTRAINT "dunning_steps_step_check" CHECK ("dunning_steps"."step" in ('first_reminder','second_reminder','pause'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "contract_pauses" ADD COLUMN "reason" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "pause_reason" text;--> statement-breakpoint
UPDATE "contracts" SET "pause_reason" = 'manual' WHERE "status" = 'paused';--> statement-breakpoint
ALTER TABLE "dunning_steps" ADD CONSTRAINT "dunning_steps_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_pauses" ADD CONSTRAINT "contract_pauses_reason_check" CHECK ("contract_pauses"."reason" in ('manual','non_payment'));--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_pause_reason_check" CHECK ("contracts"."pause_reason" is null or ("contracts"."status" = 'paused' and "contracts"."pause_reason" in ('manual','non_payment')));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('payment_received','payment_failed','contract_activated','contract_expiring','contract_amended','contract_paused','contract_resumed','credit_note_issued','payout_requested','payout_approved','payout_rejected','payout_disbursed'));