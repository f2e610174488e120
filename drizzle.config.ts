import { defineConfig } from 'drizzle-kit';

// Generation only reads the table definitions; no database connection is needed.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/**/*.sql.ts',
  out: './drizzle',
});
