// Types of migrator.mjs (plain ESM so it runs before any TypeScript build), for TypeScript callers
// such as src/prisma-client.spec.ts or `import { deployMigrations } from '@jobs/db/migrator'`.
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
export declare const ROOT: string;
export declare const SCHEMA_PATH: string;
export declare const MIGRATIONS_DIR: string;
export declare const DEFAULT_DATABASE_URL: string;
export declare const MIGRATION_LOCK_FILE: string;
export declare const MIGRATION_LOCK_CONTENT: string;

export declare class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown; details?: string });
  /** Last schema-engine log lines, when the engine failed. */
  details: string;
}

export interface MigratorOptions {
  /** Default: env DATABASE_URL, else DEFAULT_DATABASE_URL. */
  databaseUrl?: string;
  /** Default: prisma/migrations. */
  migrationsDir?: string;
  /** Default: prisma/schema.prisma. */
  schemaPath?: string;
}

export declare function databaseUrlFromEnv(env?: NodeJS.ProcessEnv): string;
export declare function redactUrl(url: string): string;
/** Creates the database of `url` if missing; true when created. */
export declare function ensureDatabase(url: string, options?: { maintenanceDatabase?: string }): Promise<boolean>;
/** DROP DATABASE IF EXISTS … WITH (FORCE). */
export declare function dropDatabase(url: string, options?: { maintenanceDatabase?: string }): Promise<void>;
export declare function loadSchemaEngine(): Promise<typeof import('@prisma/schema-engine-wasm')>;
export declare function readMigrationsList(migrationsDir?: string): Promise<MigrationList>;
export declare function withSchemaEngine<T>(
  url: string,
  options: { schemaPath?: string },
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T>;

export interface DeployResult {
  createdDatabase: boolean;
  /** Migrations applied by this call, in order. */
  applied: string[];
  /** Migrations recorded as applied in the database after this call. */
  total: number;
}
export declare function deployMigrations(options?: MigratorOptions): Promise<DeployResult>;
/** SQL from the migrations folder to the schema, or null when there is no change. */
export declare function diffMigrationsToSchema(options?: MigratorOptions): Promise<string | null>;
export declare function sanitizeMigrationName(name: string): string;
/** Writes a new migration folder; null (nothing written) when there is no change. */
export declare function createMigration(
  name: string,
  options?: MigratorOptions,
): Promise<{ name: string; dir: string; sql: string } | null>;
export declare function resolveMigration(
  action: 'applied' | 'rolled-back',
  migrationName: string,
  options?: MigratorOptions,
): Promise<void>;
