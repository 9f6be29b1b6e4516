import { z } from 'zod';
import { databaseUrlSetting, SharedEnvSchema } from '@jobs/config';
import { SERVICE_ROLES } from '@jobs/db/roles';

export const OrchestratorEnvSchema = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES['search-orchestrator']),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9101),
  /**
   * Live async searches collecting at once, over every replica (the async pool): the others wait
   * as \`queued\`, the account with the fewest collecting first. Sync searches have their own
   * admission in the gateway, so neither kind can take the pipeline from the other.
   */
  ASYNC_SEARCH_MAX_RUNNING: z.coerce.number().int().min(1).default(8),
});
export type OrchestratorConfig = z.infer<typeof OrchestratorEnvSchema>;
