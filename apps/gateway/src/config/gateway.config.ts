import { z } from 'zod';
import { SharedEnvSchema } from '@jobs/config';

export const GatewayEnvSchema = SharedEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  ADMIN_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  ADMIN_TOKEN: z.string().min(8).default('dev-admin-token'),
  /** name=url pairs of the services whose readiness the gateway's /readyz aggregates. */
  SERVICE_HEALTH_URLS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => {
          const [name, url] = pair.split('=');
          return { name: name ?? '', url: url ?? '' };
        }),
    )
    .pipe(z.array(z.object({ name: z.string().min(1), url: z.string().url() }))),
  PROVIDER_SIM_URL: z.string().url().default('http://127.0.0.1:8090'),
  /** Extra time the gateway waits for a search answer beyond the request's own timeout. */
  SEARCH_REPLY_GRACE_MS: z.coerce.number().int().min(0).default(5000),
  API_KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).default(300),
});

export type GatewayConfig = z.infer<typeof GatewayEnvSchema>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
