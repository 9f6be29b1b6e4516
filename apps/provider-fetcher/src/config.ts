import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const FetcherEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9102),
  /** Base URL of the partner providers (the simulator locally). */
  PROVIDER_SIM_URL: z.string().url().default('http://127.0.0.1:8090'),
});
export type FetcherConfig = z.infer<typeof FetcherEnvSchema>;
