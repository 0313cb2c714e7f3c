ALTER TABLE "outbox_emails" ADD COLUMN "delivery_text" text;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "delivery_html" text;--> statement-breakpoint
-- A link that grants something (set a password, pay a contract, pay a checkout) is readable by its recipient
-- only. Messages still waiting for delivery keep their full parts for the SMTP delivery alone; what staff read
-- in the outbox has the token of every such link hidden, in every stored message.
UPDATE "outbox_emails"
SET "delivery_text" = "text", "delivery_html" = "html"
WHERE "status" = 'queued' AND ("text" ~ '(/set-password\?token=|/p/|/checkout/)[A-Za-z0-9_-]' OR "html" ~ '(/set-password\?token=|/p/|/checkout/)[A-Za-z0-9_-]');
--> statement-breakpoint
UPDATE "outbox_emails"
SET "text" = regexp_replace("text", '(/set-password\?token=|/p/|/checkout/)[A-Za-z0-9_-]+', '\1[hidden]', 'g'),
    "html" = regexp_replace("html", '(/set-password\?token=|/p/|/checkout/)[A-Za-z0-9_-]+', '\1[hidden]', 'g')
WHERE "text" ~ '(/set-password\?token=|/p/|/checkout/)[A-Za-z0-9_-]' OR "html" ~ '(/set-password\?token=|/p/|/checkout/)[A-Za-z0-9_-]';
--> statement-breakpoint
-- Audit events kept a contract's whole row, its pay-link token included: the trail keeps everything but that.
UPDATE "audit_events" SET "before" = "before" - 'payLinkToken' WHERE jsonb_typeof("before") = 'object' AND "before" ? 'payLinkToken';
--> statement-breakpoint
UPDATE "audit_events" SET "after" = "after" - 'payLinkToken' WHERE jsonb_typeof("after") = 'object' AND "after" ? 'payLinkToken';
