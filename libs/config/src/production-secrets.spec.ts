import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config.js';
import { SharedEnvSchema } from './env.schema.js';
import { declaredKeys, isLoopbackHost, runsInProduction, weakSecrets } from './production-secrets.js';

const STRONG = 'x'.repeat(32);
const WithAdmin = SharedEnvSchema.extend({ ADMIN_TOKEN: z.string().min(8).default('dev-admin-token') }).transform(
  (c) => ({ ...c }),
);

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(WithAdmin, env);
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
}

describe('production secrets', () => {
  it('development on loopback runs with the development defaults', () => {
    expect(problemsOf({})).toBe('');
    expect(problemsOf({ LISTEN_HOST: '127.0.0.2' })).toBe('');
  });

  it('production refuses a missing, default or short secret, naming the variable and not the value', () => {
    const message = problemsOf({
      NODE_ENV: 'production',
      ADMIN_TOKEN: 'dev-admin-token',
      CURSOR_SECRET: 'short-but-16-chars!',
    });
    expect(message).toContain('ADMIN_TOKEN: is the development default');
    expect(message).toContain('CURSOR_SECRET: shorter than 32 bytes');
    expect(message).not.toContain('short-but-16-chars!');
    expect(problemsOf({ NODE_ENV: 'production', CURSOR_SECRET: STRONG })).toContain(
      'ADMIN_TOKEN: required in production',
    );
    expect(
      problemsOf({ NODE_ENV: 'production', CURSOR_SECRET: 'dev-cursor-secret-change-me', ADMIN_TOKEN: STRONG }),
    ).toContain('CURSOR_SECRET: is the development default');
  });

  it('a bind to a non-loopback address is production whatever NODE_ENV says', () => {
    expect(problemsOf({ LISTEN_HOST: '0.0.0.0' })).toContain('ADMIN_TOKEN');
    expect(problemsOf({ LISTEN_HOST: '0.0.0.0', ADMIN_TOKEN: STRONG, CURSOR_SECRET: STRONG })).toBe('');
    expect(runsInProduction({ PROVIDER_SIM_HOST: '10.0.0.5' })).toBe(true);
    expect(runsInProduction({ LISTEN_HOST: '::1', NODE_ENV: 'test' })).toBe(false);
  });

  it('checks only the secrets a service declares', () => {
    expect(declaredKeys(WithAdmin).has('ADMIN_TOKEN')).toBe(true);
    expect(declaredKeys(SharedEnvSchema).has('ADMIN_TOKEN')).toBe(false);
    expect(() => loadConfig(SharedEnvSchema, { NODE_ENV: 'production', CURSOR_SECRET: STRONG })).not.toThrow();
    const optionalKey = SharedEnvSchema.extend({ WEBHOOK_SECRETS_KEY: z.string().optional() });
    expect(weakSecrets(declaredKeys(optionalKey), { CURSOR_SECRET: STRONG })).toEqual([
      expect.stringContaining('WEBHOOK_SECRETS_KEY: required'),
    ]);
  });

  it('counts bytes, not characters', () => {
    expect(weakSecrets(new Set(['ADMIN_TOKEN']), { ADMIN_TOKEN: 'é'.repeat(16) })).toEqual([]);
    expect(weakSecrets(new Set(['ADMIN_TOKEN']), { ADMIN_TOKEN: 'a'.repeat(31) })).toHaveLength(1);
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.9.9.9', '::1', '[::1]', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'gateway', '192.168.1.1'])
      expect(isLoopbackHost(host)).toBe(false);
  });
});
