// Prisma 7 configuration (read by the `prisma` CLI, e.g. `prisma generate`). The datasource URL
// lives here, not in schema.prisma. Migrations are applied by scripts/db/migrate.mjs (WASM schema
// engine + pg driver adapter), which uses the same DATABASE_URL and default.
import { defineConfig } from 'prisma/config';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/jobs';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env['DATABASE_URL'] || DEFAULT_DATABASE_URL },
});
