// Types of roles.mjs (plain ESM so the set-up runs it before any TypeScript build), for
// TypeScript callers: `import { SERVICE_ROLES, serviceDatabaseUrl } from '@jobs/db/roles'`.
export type DatabaseService = 'gateway' | 'search-orchestrator' | 'dedupe' | 'billing' | 'webhook-dispatcher';
export type TablePrivilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
export type SharedTable = 'outbox_messages' | 'processed_messages';

export interface ServiceTableGrants {
  /** Tables only this service writes. */
  owns: readonly string[];
  /** Shared tables it writes (SHARED_PRIVILEGES). */
  shares: readonly SharedTable[];
  /** Other services' tables it reads (SELECT). */
  reads: readonly string[];
}

export declare const SERVICE_ROLES: Readonly<Record<DatabaseService, string>>;
export declare const PRIVILEGES: Readonly<{ owns: readonly TablePrivilege[]; reads: readonly TablePrivilege[] }>;
export declare const SHARED_PRIVILEGES: Readonly<Record<SharedTable, readonly TablePrivilege[]>>;
export declare const TABLE_GRANTS: Readonly<Record<DatabaseService, ServiceTableGrants>>;
/** The service role's connection string on the database of `adminUrl` (no password). */
export declare function serviceDatabaseUrl(adminUrl: string, service: DatabaseService): string;
/** `DATABASE_URL_<SERVICE>`, e.g. DATABASE_URL_SEARCH_ORCHESTRATOR. */
export declare function serviceUrlVariable(service: DatabaseService): string;
/** Sets each role's password from DATABASE_URL_<SERVICE> in `env`; answers the roles it set. */
export declare function setRolePasswords(adminUrl: string, env?: NodeJS.ProcessEnv): Promise<string[]>;
