-- The figures staff entered per contract and month become delivery figures (product.md section 12): those of a
-- month whose period billed a CPM line go to the contract's first such line, settled without a remedy ('none':
-- they were entered before delivery was reconciled, so nothing is credited for them). Every row, with the
-- views the delivery figures do not keep, stays in the audit trail.
INSERT INTO "line_deliveries" ("contract_id", "line_id", "invoice_id", "period_start", "period_end",
  "booked_impressions", "makegood_impressions", "delivered_impressions", "clicks", "remedy", "settled_at",
  "recorded_by", "created_at", "updated_at")
SELECT DISTINCT ON (cp."id") cp."contract_id", il."line_id", i."id", i."period_start", i."period_end",
  il."impressions", 0, cp."impressions", cp."clicks", 'none', now(), cp."updated_by", cp."created_at", cp."updated_at"
FROM "contract_performance" cp
JOIN "invoices" i ON i."contract_id" = cp."contract_id" AND to_char(i."period_start", 'YYYY-MM') = cp."month"
  AND i."status" <> 'void'
JOIN "invoice_lines" il ON il."invoice_id" = i."id" AND il."kind" = 'product' AND il."price_metric" = 'cpm'
  AND il."line_id" IS NOT NULL AND il."impressions" IS NOT NULL
JOIN "contract_line_items" li ON li."id" = il."line_id"
ORDER BY cp."id", li."position", li."id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "audit_events" ("actor_id", "action", "entity", "entity_id", "before")
SELECT cp."updated_by", 'performance.retired', 'contract', cp."contract_id"::text,
  jsonb_build_object('month', cp."month", 'impressions', cp."impressions", 'clicks', cp."clicks", 'views', cp."views")
FROM "contract_performance" cp;--> statement-breakpoint
DROP TABLE "contract_performance" CASCADE;