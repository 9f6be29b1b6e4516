import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const OrchestratorEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9101),
  /** How often watches and the own index re-read the providers (operator.md). */
  REFRESH_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
});
export type OrchestratorConfig = z.infer<typeof OrchestratorEnvSchema>;
