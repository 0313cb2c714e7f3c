CREATE TABLE "inventory_holds" (
	"contract_id" uuid PRIMARY KEY NOT NULL,
	"hold_until" timestamp with time zone NOT NULL,
	"expired_notice_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "capacity" integer;--> statement-breakpoint
-- Inventory products sold before capacities existed start with one slot a day (editable on the product form).
UPDATE "products" SET "capacity" = 1 WHERE "inventory_required";--> statement-breakpoint
ALTER TABLE "inventory_holds" ADD CONSTRAINT "inventory_holds_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_holds_expiry_idx" ON "inventory_holds" USING btree ("hold_until") WHERE "inventory_holds"."expired_notice_at" is null;--> statement-breakpoint
CREATE INDEX "contract_line_items_flight_idx" ON "contract_line_items" USING btree ("product_id",coalesce("flight_end", 'infinity'::date),"flight_start","flight_end","contract_id","quantity");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_capacity_check" CHECK (("products"."inventory_required" and "products"."capacity" between 1 and 1000) or (not "products"."inventory_required" and "products"."capacity" is null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('payment_received','payment_failed','contract_activated','contract_expiring','contract_amended','contract_paused','contract_resumed','credit_note_issued','delivery_under_pace','delivery_remedy','inventory_hold_expired','payout_requested','payout_approved','payout_rejected','payout_disbursed'));--> statement-breakpoint
-- Contracts already sent hold their units for the default 7 days from their send.
INSERT INTO "inventory_holds" ("contract_id", "hold_until")
SELECT "id", coalesce("sent_at", now()) + interval '7 days' FROM "contracts" WHERE "status" = 'sent';
