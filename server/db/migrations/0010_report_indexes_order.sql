DROP INDEX "contracts_report_status_idx";--> statement-breakpoint
CREATE INDEX "payments_contract_succeeded_idx" ON "payments" USING btree ("contract_id","paid_at","kind","amount_cents") WHERE "payments"."status" = 'succeeded';--> statement-breakpoint
CREATE INDEX "contracts_report_status_idx" ON "contracts" USING btree ("status","customer_id","monthly_amount_cents");