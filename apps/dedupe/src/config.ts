import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const DedupeEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9103),
});
export type DedupeConfig = z.infer<typeof DedupeEnvSchema>;
