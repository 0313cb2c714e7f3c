CREATE TABLE "number_series" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_value" bigint NOT NULL,
	CONSTRAINT "number_series_series_year_pk" PRIMARY KEY("series","year"),
	CONSTRAINT "number_series_series_check" CHECK ("number_series"."series" in ('INV','CN')),
	CONSTRAINT "number_series_last_value_check" CHECK ("number_series"."last_value" >= 0)
);
--> statement-breakpoint
-- The numbers already issued stay; each year's series continues after its highest number.
INSERT INTO "number_series" ("series", "year", "last_value")
SELECT 'INV', substring("number" from 5 for 4)::int, max(substring("number" from 10)::bigint)
FROM "invoices"
WHERE "number" ~ '^INV-[0-9]{4}-[0-9]+$'
GROUP BY 2;--> statement-breakpoint
DROP SEQUENCE "public"."invoice_number_seq";