DROP INDEX "contracts_status_idx";--> statement-breakpoint
DROP INDEX "contracts_customer_idx";--> statement-breakpoint
DROP INDEX "contracts_sales_rep_idx";--> statement-breakpoint
DROP INDEX "contracts_created_idx";--> statement-breakpoint
CREATE INDEX "contracts_status_idx" ON "contracts" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "contracts_customer_idx" ON "contracts" USING btree ("customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contracts_sales_rep_idx" ON "contracts" USING btree ("sales_rep_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contracts_created_idx" ON "contracts" USING btree ("created_at","id");