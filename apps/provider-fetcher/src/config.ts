import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const FetcherEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9102),
  /** Base URL of the partner providers (the simulator locally). */
  PROVIDER_SIM_URL: z.string().url().default('http://127.0.0.1:8090'),
  /** What the own crawler tells the ATS hosts it reads (their terms ask crawlers to name themselves). */
  CRAWLER_USER_AGENT: z.string().min(1).default('jobs-own-crawler/1.0 (job-data aggregation API; board reader)'),
  /** Board reads in flight to one ATS host at once, per fetcher replica. */
  CRAWLER_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
});
export type FetcherConfig = z.infer<typeof FetcherEnvSchema>;
