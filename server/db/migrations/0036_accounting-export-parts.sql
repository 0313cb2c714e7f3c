CREATE TABLE "accounting_export_parts" (
	"export_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"sha256" text NOT NULL,
	"document_count" integer NOT NULL,
	CONSTRAINT "accounting_export_parts_pkey" PRIMARY KEY("export_id","part"),
	CONSTRAINT "accounting_export_parts_part_check" CHECK ("accounting_export_parts"."part" >= 1),
	CONSTRAINT "accounting_export_parts_count_check" CHECK ("accounting_export_parts"."document_count" > 0)
);
--> statement-breakpoint
-- Every batch made before parts had one file: it becomes its part 1, the same name, bytes and SHA-256.
INSERT INTO "accounting_export_parts" ("export_id", "part", "file_name", "content", "sha256", "document_count")
SELECT "id", 1, "file_name", "content", "sha256", "document_count" FROM "accounting_exports";--> statement-breakpoint
-- Their documents are in that part; new claims always name their part.
ALTER TABLE "accounting_export_documents" ADD COLUMN "part" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounting_export_documents" ALTER COLUMN "part" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "accounting_export_parts" ADD CONSTRAINT "accounting_export_parts_export_id_accounting_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."accounting_exports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_export_documents" ADD CONSTRAINT "accounting_export_documents_part_fk" FOREIGN KEY ("export_id","part") REFERENCES "public"."accounting_export_parts"("export_id","part") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_exports" DROP COLUMN "file_name";--> statement-breakpoint
ALTER TABLE "accounting_exports" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "accounting_exports" DROP COLUMN "sha256";
