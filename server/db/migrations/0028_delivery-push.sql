CREATE TABLE "line_delivery_days" (
	"line_id" uuid NOT NULL,
	"day" date NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "line_delivery_days_pkey" PRIMARY KEY("line_id","day"),
	CONSTRAINT "line_delivery_days_figures_check" CHECK ("line_delivery_days"."impressions" >= 0 and coalesce("line_delivery_days"."clicks", 0) >= 0)
);
--> statement-breakpoint
DROP INDEX "line_deliveries_period_idx";--> statement-breakpoint
ALTER TABLE "line_deliveries" ADD COLUMN "final_at" timestamp with time zone;--> statement-breakpoint
-- Figures recorded before delivery was pushed were staff's own (the contract page, the CSV import): final.
UPDATE "line_deliveries" SET "final_at" = coalesce("settled_at", "updated_at");--> statement-breakpoint
ALTER TABLE "line_delivery_days" ADD CONSTRAINT "line_delivery_days_line_id_contract_line_items_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."contract_line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_delivery_days" ADD CONSTRAINT "line_delivery_days_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_deliveries_final_period_idx" ON "line_deliveries" USING btree ("period_start","booked_impressions","delivered_impressions") WHERE "line_deliveries"."final_at" is not null;--> statement-breakpoint
CREATE INDEX "line_deliveries_open_idx" ON "line_deliveries" USING btree ("period_end") WHERE "line_deliveries"."settled_at" is null and ("line_deliveries"."final_at" is null or "line_deliveries"."delivered_impressions" < "line_deliveries"."booked_impressions");