import { z } from 'zod';
import { DEV_CURSOR_SECRET } from './production-secrets.js';

/** Booleans from the environment: only the words operators actually write. */
export const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const brokerList = z
  .string()
  .min(1)
  .transform((s) =>
    s
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[^:\s]+:\d{1,5}$/, 'expected host:port')).min(1));

/**
 * Settings every service shares (operator.md "Configuration"). Each service extends this
 * with its own keys; nothing reads `process.env` outside `loadConfig`.
 */
export const SharedEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INSTANCE_ID: z.string().min(1).optional(),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  KAFKA_BROKERS: brokerList.default(['127.0.0.1:19092']),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /**
   * Address the service's HTTP listeners bind: loopback by default (a developer machine, the
   * test stack); `0.0.0.0` in containers (docker-compose, deploy/k8s) so probes, Services and the
   * gateway's readiness checks can reach them.
   */
  LISTEN_HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the service's own health, readiness (and later metrics) endpoints. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Signs pagination cursors (tamper-proof); every replica of a service must share it. */
  CURSOR_SECRET: z.string().min(16).default(DEV_CURSOR_SECRET),
  /** How long a SIGTERM drain may take before in-flight work is abandoned. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120000).default(15000),
});

export type SharedEnv = z.infer<typeof SharedEnvSchema>;

/**
 * DATABASE_URL of a service that uses PostgreSQL: it connects as its own role (`role`, made by
 * the migrations), which may write only the tables the service owns. The default is that role on
 * the local server; the local set-up trusts loopback, a deployment puts the role's password in
 * the service's own Secret. Services without a database (provider-fetcher, provider-sim) have none.
 */
export const databaseUrlSetting = (role: string) =>
  z
    .string()
    .url()
    .refine(
      (url) => URL.canParse(url) && /^postgres(ql)?:$/.test(new URL(url).protocol),
      'expected a postgresql:// URL',
    )
    .default(`postgresql://${role}@127.0.0.1:5432/jobs`);
