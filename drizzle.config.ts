import { defineConfig } from 'drizzle-kit';

// Migrations are generated from server/db/schema and committed; the server applies them on start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
