ALTER TABLE "invoice_lines" ADD COLUMN "price_metric" text;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "covers_start" date;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "covers_end" date;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "prorated_days" integer;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "period_days" integer;--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD COLUMN "price_metric" text DEFAULT 'monthly' NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD COLUMN "seasonal_price_cents" bigint;--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD COLUMN "flight_start" date;--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD COLUMN "flight_end" date;--> statement-breakpoint
-- Existing lines keep what they show today: the product's metric and seasonal price, a flight from the
-- contract's start (a flat line's for its product's default duration).
UPDATE "contract_line_items" li
SET "price_metric" = CASE WHEN p."price_metric" IN ('monthly', 'flat', 'cpm') THEN p."price_metric" ELSE 'monthly' END,
    "seasonal_price_cents" = p."seasonal_price_cents",
    "flight_start" = c."start_date",
    "flight_end" = CASE WHEN p."price_metric" = 'flat' AND p."default_duration" > 0
                        THEN c."start_date" + p."default_duration" - 1 END
FROM "products" p, "contracts" c
WHERE p."id" = li."product_id" AND c."id" = li."contract_id";--> statement-breakpoint
ALTER TABLE "contract_line_items" ALTER COLUMN "flight_start" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD CONSTRAINT "contract_line_items_metric_check" CHECK ("contract_line_items"."price_metric" in ('monthly','flat','cpm'));--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD CONSTRAINT "contract_line_items_seasonal_price_check" CHECK (coalesce("contract_line_items"."seasonal_price_cents", 0) >= 0);--> statement-breakpoint
ALTER TABLE "contract_line_items" ADD CONSTRAINT "contract_line_items_flight_check" CHECK ("contract_line_items"."flight_end" is null or "contract_line_items"."flight_end" >= "contract_line_items"."flight_start");
