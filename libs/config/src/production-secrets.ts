import { isIP } from 'node:net';
import { type z } from 'zod';
import { DEV_WEBHOOK_SECRETS_KEY } from './webhook-env.schema.js';

/**
 * A secret a service may read from its environment. A service "reads" it when its config schema
 * declares the variable; only those are checked, so a service that never touches a secret is not
 * asked for it.
 */
export interface SecretSetting {
  name: string;
  /** Values a developer machine runs with: never accepted in production. */
  developmentDefaults: readonly string[];
}

/** Fewer bytes than this cannot resist an offline guess of an HMAC key or a bearer token. */
export const MIN_SECRET_BYTES = 32;

export const DEV_ADMIN_TOKEN = 'dev-admin-token';
export const DEV_CURSOR_SECRET = 'dev-cursor-secret-change-me';

/**
 * Every secret of the platform. Add a secret here and declare it in the schema of each service
 * that reads it; `loadConfig` then refuses a weak or missing value in production.
 */
export const SECRET_SETTINGS: readonly SecretSetting[] = [
  { name: 'ADMIN_TOKEN', developmentDefaults: [DEV_ADMIN_TOKEN] },
  { name: 'CURSOR_SECRET', developmentDefaults: [DEV_CURSOR_SECRET] },
  // The key that encrypts webhook signing secrets at rest: checked in every service whose schema declares it.
  { name: 'WEBHOOK_SECRETS_KEY', developmentDefaults: [DEV_WEBHOOK_SECRETS_KEY] },
];

/** Settings that hold an address a service's HTTP listener binds. */
const BIND_ADDRESS_SETTINGS = ['LISTEN_HOST', 'PROVIDER_SIM_HOST'] as const;

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare.startsWith('::ffff:127.');
  return false;
}

/**
 * Production is `NODE_ENV=production`, or any listener bound where other machines reach it: the
 * secrets then guard something real, whatever NODE_ENV says.
 */
export function runsInProduction(config: Record<string, unknown>): boolean {
  if (config['NODE_ENV'] === 'production') return true;
  return BIND_ADDRESS_SETTINGS.some((key) => typeof config[key] === 'string' && !isLoopbackHost(config[key]));
}

/** The variables a config schema declares (through any transform or pipe around its object). */
export function declaredKeys(schema: z.ZodType): Set<string> {
  let def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  for (let hops = 0; hops < 16; hops++) {
    if (def['type'] === 'object') return new Set(Object.keys(def['shape'] as object));
    const inner = (def['in'] ?? def['innerType'] ?? def['schema']) as
      { _zod: { def: Record<string, unknown> } } | undefined;
    if (!inner) break;
    def = inner._zod.def;
  }
  return new Set();
}

/**
 * The problems of the secrets a service reads, one line each, naming the variable and never its
 * value. `raw` is the environment as given (a schema default is no secret); `config` the parsed one.
 */
export function weakSecrets(
  declared: ReadonlySet<string>,
  raw: Record<string, string | undefined>,
  settings: readonly SecretSetting[] = SECRET_SETTINGS,
): string[] {
  const problems: string[] = [];
  for (const setting of settings) {
    if (!declared.has(setting.name)) continue;
    const value = raw[setting.name];
    if (value === undefined || value === '')
      problems.push(`${setting.name}: required in production (at least ${MIN_SECRET_BYTES} random bytes)`);
    else if (setting.developmentDefaults.includes(value))
      problems.push(`${setting.name}: is the development default; set a secret of your own in production`);
    else if (Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES)
      problems.push(
        `${setting.name}: shorter than ${MIN_SECRET_BYTES} bytes; production needs at least ${MIN_SECRET_BYTES}`,
      );
  }
  return problems;
}
