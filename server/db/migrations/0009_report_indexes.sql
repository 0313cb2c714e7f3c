CREATE INDEX "invoices_contract_issued_idx" ON "invoices" USING btree ("contract_id","issued_at","status","total_cents","id");--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_date","total_cents","amount_paid_cents") WHERE "invoices"."status" in ('pending','failed');--> statement-breakpoint
CREATE INDEX "invoices_open_contract_idx" ON "invoices" USING btree ("contract_id","due_date","total_cents","amount_paid_cents") WHERE "invoices"."status" in ('pending','failed');--> statement-breakpoint
CREATE INDEX "contracts_report_status_idx" ON "contracts" USING btree ("status","monthly_amount_cents","customer_id");--> statement-breakpoint
CREATE INDEX "contracts_report_created_idx" ON "contracts" USING btree ("created_at","total_cents");