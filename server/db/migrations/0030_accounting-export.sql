CREATE TABLE "accounting_export_documents" (
	"export_id" uuid NOT NULL,
	"format" text NOT NULL,
	"document_kind" text NOT NULL,
	"document_id" uuid NOT NULL,
	CONSTRAINT "accounting_export_documents_pkey" PRIMARY KEY("format","document_kind","document_id"),
	CONSTRAINT "accounting_export_documents_kind_check" CHECK ("accounting_export_documents"."document_kind" in ('invoice','credit_note','payment','credit_refund'))
);
--> statement-breakpoint
CREATE TABLE "accounting_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"format" text NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"document_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"tax_cents" bigint,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"sha256" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounting_exports_number_key" UNIQUE("number"),
	CONSTRAINT "accounting_exports_id_format_key" UNIQUE("id","format"),
	CONSTRAINT "accounting_exports_format_check" CHECK ("accounting_exports"."format" in ('xero-invoices','xero-credit-notes','quickbooks-invoices','journal')),
	CONSTRAINT "accounting_exports_range_check" CHECK ("accounting_exports"."from_date" <= "accounting_exports"."to_date"),
	CONSTRAINT "accounting_exports_count_check" CHECK ("accounting_exports"."document_count" > 0)
);
--> statement-breakpoint
ALTER TABLE "number_series" DROP CONSTRAINT "number_series_series_check";--> statement-breakpoint
ALTER TABLE "accounting_export_documents" ADD CONSTRAINT "accounting_export_documents_export_fk" FOREIGN KEY ("export_id","format") REFERENCES "public"."accounting_exports"("id","format") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_exports" ADD CONSTRAINT "accounting_exports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounting_export_documents_export_idx" ON "accounting_export_documents" USING btree ("export_id");--> statement-breakpoint
CREATE INDEX "accounting_export_documents_document_idx" ON "accounting_export_documents" USING btree ("document_kind","document_id");--> statement-breakpoint
CREATE INDEX "accounting_exports_created_idx" ON "accounting_exports" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "number_series" ADD CONSTRAINT "number_series_series_check" CHECK ("number_series"."series" in ('INV','CN','EXP'));