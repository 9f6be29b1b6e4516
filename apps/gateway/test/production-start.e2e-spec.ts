import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServiceBundle } from './stack.js';

/**
 * Every service's bundle, started as production with a development or missing secret, stops
 * before it does anything else: non-zero exit, the variable named. (The bundles are those the
 * test stack runs.)
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const STRONG = 'p'.repeat(48);

/** The secrets each service reads (its config schema declares them). */
const SERVICES: Array<[service: string, secrets: string[]]> = [
  ['gateway', ['ADMIN_TOKEN', 'CURSOR_SECRET', 'WEBHOOK_SECRETS_KEY']],
  ['provider-sim', ['ADMIN_TOKEN']],
  ['search-orchestrator', ['CURSOR_SECRET']],
  ['provider-fetcher', ['CURSOR_SECRET']],
  ['dedupe', ['CURSOR_SECRET']],
  ['billing', ['CURSOR_SECRET']],
  ['webhook-dispatcher', ['CURSOR_SECRET', 'WEBHOOK_SECRETS_KEY']],
];
const DEV_DEFAULTS: Record<string, string> = {
  ADMIN_TOKEN: 'dev-admin-token',
  CURSOR_SECRET: 'dev-cursor-secret-change-me',
  WEBHOOK_SECRETS_KEY: 'dev-webhook-secrets-key-change-me',
};

function start(service: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  // unreachable infrastructure: a service that got past its configuration would hang, not exit
  return runServiceBundle(
    service,
    {
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
      REDIS_URL: 'redis://127.0.0.1:1',
      KAFKA_BROKERS: '127.0.0.1:1',
      LOG_LEVEL: 'fatal',
      ...env,
    },
    20_000,
  );
}

describe('production refuses weak secrets at start', () => {
  it.each(SERVICES)(
    '%s exits non-zero naming each development-default secret',
    async (service, secrets) => {
      const bundle = join(ROOT, 'apps', service, 'bundle', 'main.mjs');
      expect(existsSync(bundle)).toBe(true);
      for (const secret of secrets) {
        const env = {
          NODE_ENV: 'production',
          ...Object.fromEntries(secrets.map((s) => [s, STRONG])),
          [secret]: DEV_DEFAULTS[secret]!,
        };
        const { code, output } = await start(service, env);
        expect({ secret, code, named: output.includes(`${secret}: is the development default`) }).toEqual({
          secret,
          code: 1,
          named: true,
        });
        expect(output).not.toContain(DEV_DEFAULTS[secret]);
      }
    },
    120_000,
  );

  it.each(SERVICES)(
    '%s bound to every interface without NODE_ENV=production still refuses a missing or short secret',
    async (service, secrets) => {
      const bind: Record<string, string> =
        service === 'provider-sim'
          ? { PROVIDER_SIM_HOST: '0.0.0.0', PROVIDER_SIM_PORT: '0' }
          : { LISTEN_HOST: '0.0.0.0', HEALTH_PORT: '0', PORT: '0', ADMIN_PORT: '0' };
      const [first, ...rest] = secrets;
      const { code, output } = await start(service, {
        ...bind,
        ...Object.fromEntries(rest.map((s) => [s, 'twenty-bytes-of-text'])),
      });
      expect(code).toBe(1);
      expect(output).toContain(`${first}: required in production`);
      for (const secret of rest) expect(output).toContain(`${secret}: shorter than 32 bytes`);
    },
    60_000,
  );
});
