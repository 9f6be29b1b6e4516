import { type z } from 'zod';
import { declaredKeys, runsInProduction, weakSecrets } from './production-secrets.js';
import { publicUrlProblems } from './production-urls.js';

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment once, validates it against a service's schema and freezes it.
 * Error messages name the variable but never echo its value (it may be a secret). In production
 * (production-secrets.ts) every secret the schema declares must be set, not a development
 * default, and at least 32 bytes long, and every public address it hands customers that is set
 * must be a reachable https address (production-urls.ts).
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<z.infer<S>> {
  const source = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const config = parsed.data as Record<string, unknown>;
  if (config !== null && typeof config === 'object' && runsInProduction(config)) {
    const declared = declaredKeys(schema);
    const problems = [...weakSecrets(declared, source), ...publicUrlProblems(declared, source)];
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return Object.freeze(parsed.data) as Readonly<z.infer<S>>;
}
