import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const OrchestratorEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9101),
});
export type OrchestratorConfig = z.infer<typeof OrchestratorEnvSchema>;
