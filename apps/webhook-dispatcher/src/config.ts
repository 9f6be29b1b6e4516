import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const DispatcherEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9105),
});
export type DispatcherConfig = z.infer<typeof DispatcherEnvSchema>;
