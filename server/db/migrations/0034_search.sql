-- The contract search (docs/decisions/045-search.md) matches one stored, lower-cased column: the title's and
-- the description's first 200 characters, the id, and the customer's name. Bounded, so that it fits in a
-- B-tree entry: contracts_created_idx (created_at, id) INCLUDEs it, and a search that walks the newest
-- contracts first reads that index only; the trigram index on the same column finds rare matches.
DROP INDEX "contracts_search_idx";--> statement-breakpoint
-- Dropped before the column is filled (every update would write its entries) and made again below.
DROP INDEX "contracts_created_idx";--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION contract_search_text(title text, description text, id uuid, customer_name text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(concat_ws(' ', left(title, 200), left(description, 200), id::text, left(customer_name, 200)))
$$;--> statement-breakpoint
UPDATE "contracts" c SET "search_text" = contract_search_text(c.title, c.description, c.id, cu.name)
FROM "customers" cu WHERE cu.id = c.customer_id;--> statement-breakpoint
-- Every writer keeps it right: an insert, and an update that sets the title, the description, the customer
-- or the column itself, computes it again from the row and its customer's name.
CREATE OR REPLACE FUNCTION contracts_search_text_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := contract_search_text(NEW.title, NEW.description, NEW.id,
                                          (SELECT cu.name FROM customers cu WHERE cu.id = NEW.customer_id));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER contracts_search_text_set BEFORE INSERT OR UPDATE OF title, description, customer_id, search_text
ON contracts FOR EACH ROW EXECUTE FUNCTION contracts_search_text_set();--> statement-breakpoint
-- A customer renamed: its contracts are found under the new name (the trigger above computes each again).
CREATE OR REPLACE FUNCTION customers_search_text_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contracts SET search_text = search_text WHERE customer_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER customers_search_text_rename AFTER UPDATE OF name ON customers FOR EACH ROW
WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION customers_search_text_rename();--> statement-breakpoint
CREATE INDEX "contracts_search_idx" ON "contracts" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contracts_created_idx" ON "contracts" ("created_at", "id") INCLUDE ("search_text");--> statement-breakpoint
-- The planner chooses between the newest-first walk and the trigram index from the share of rows a pattern
-- matches, which it reads from this column's statistics: 1,000 values instead of 100 tell a pattern that
-- matches 0.5% of the rows from one that matches 0.01%.
ALTER TABLE "contracts" ALTER COLUMN "search_text" SET STATISTICS 1000;--> statement-breakpoint
ANALYZE "contracts";
