-- Portal invitations used to e-mail a temporary password in plain text, and the outbox kept that text.
-- No stored message may hold a password: the line is rewritten in both parts of every such message.
UPDATE "outbox_emails"
SET "text" = regexp_replace("text", 'Temporary password: [^\n]*', 'Temporary password: (removed; ask for a set-password link)', 'g'),
    "html" = regexp_replace("html", 'Temporary password: [^<\n]*', 'Temporary password: (removed; ask for a set-password link)', 'g')
WHERE "text" LIKE '%Temporary password:%' OR "html" LIKE '%Temporary password:%';
--> statement-breakpoint
-- The accounts whose only password is such a temporary one (created by a portal invitation and never changed
-- since) lose it, since it was readable in the outbox: a hash nothing matches, no password set (the next
-- invitation sends a set-password link), and no sessions.
CREATE TEMPORARY TABLE "exposed_client_accounts" AS
SELECT "u"."id" FROM "users" "u"
WHERE "u"."role" = 'client'
  AND "u"."updated_at" = "u"."created_at"
  AND EXISTS (
    SELECT 1 FROM "audit_events" "a"
    WHERE "a"."entity" = 'user' AND "a"."entity_id" = "u"."id"::text AND "a"."action" = 'user.created'
      AND "a"."after" ->> 'reason' LIKE 'portal invitation%'
  );
--> statement-breakpoint
UPDATE "users"
SET "password_hash" = 'scrypt$16384$8$1$' || replace(gen_random_uuid()::text, '-', '') || '$' || replace(gen_random_uuid()::text, '-', ''),
    "password_set_at" = NULL
WHERE "id" IN (SELECT "id" FROM "exposed_client_accounts");
--> statement-breakpoint
DELETE FROM "sessions" WHERE "user_id" IN (SELECT "id" FROM "exposed_client_accounts");
--> statement-breakpoint
DROP TABLE "exposed_client_accounts";
