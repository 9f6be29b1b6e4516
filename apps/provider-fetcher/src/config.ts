import { z } from 'zod';
import { envBoolean, SharedEnvSchema } from '@jobs/config';

export const FetcherEnvSchema = SharedEnvSchema.extend({
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9102),
  /** Base URL of the partner providers (the simulator locally). */
  PROVIDER_SIM_URL: z.string().url().default('http://127.0.0.1:8090'),
  /** What the own crawler tells the ATS hosts it reads (their terms ask crawlers to name themselves). */
  CRAWLER_USER_AGENT: z.string().min(1).default('jobs-own-crawler/1.0 (job-data aggregation API; board reader)'),
  /** Board reads in flight to one ATS host at once, per fetcher replica. */
  CRAWLER_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * Whether a board may be read at a loopback or private address (operator.md: the rule of a
   * registration's `base_url`), checked again at every connection.
   */
  WEBHOOK_ALLOW_PRIVATE: envBoolean.default(false),
});
export type FetcherConfig = z.infer<typeof FetcherEnvSchema>;
