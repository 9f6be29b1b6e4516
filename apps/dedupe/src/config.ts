import { z } from 'zod';
import { databaseUrlSetting, SharedEnvSchema } from '@jobs/config';
import { SERVICE_ROLES } from '@jobs/db/roles';

export const DedupeEnvSchema = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES.dedupe),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9103),
  /** How often watches and the own index re-read the providers (operator.md): one refresh pass per interval. */
  REFRESH_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Every stored job is re-verified with its partners within this many passes. */
  REFRESH_BUCKETS: z.coerce.number().int().min(1).max(1_000).default(10),
});
export type DedupeConfig = z.infer<typeof DedupeEnvSchema>;
