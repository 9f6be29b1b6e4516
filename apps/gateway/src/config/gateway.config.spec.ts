import { ConfigError, loadConfig } from '@jobs/config';
import { GatewayEnvSchema } from './gateway.config.js';

describe('PUBLIC_BASE_URL', () => {
  it('defaults to the address the gateway listens on', () => {
    expect(loadConfig(GatewayEnvSchema, {}).PUBLIC_BASE_URL).toBe('http://127.0.0.1:8080');
    expect(loadConfig(GatewayEnvSchema, { PORT: '25080', LISTEN_HOST: '127.0.0.2' }).PUBLIC_BASE_URL).toBe(
      'http://127.0.0.2:25080',
    );
  });

  it('names loopback for a wildcard bind, and brackets an IPv6 address', () => {
    // a wildcard bind is production: its secrets must be real ones
    const secrets = { ADMIN_TOKEN: 'a'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), WEBHOOK_SECRETS_KEY: 'w'.repeat(32) };
    expect(loadConfig(GatewayEnvSchema, { ...secrets, PORT: '8080', LISTEN_HOST: '0.0.0.0' }).PUBLIC_BASE_URL).toBe(
      'http://127.0.0.1:8080',
    );
    expect(loadConfig(GatewayEnvSchema, { ...secrets, LISTEN_HOST: '::' }).PUBLIC_BASE_URL).toBe(
      'http://127.0.0.1:8080',
    );
    expect(loadConfig(GatewayEnvSchema, { LISTEN_HOST: '::1' }).PUBLIC_BASE_URL).toBe('http://[::1]:8080');
  });

  it("takes the operator's address as given, without a trailing slash", () => {
    expect(loadConfig(GatewayEnvSchema, { PUBLIC_BASE_URL: 'https://api.example.com/' }).PUBLIC_BASE_URL).toBe(
      'https://api.example.com',
    );
    expect(loadConfig(GatewayEnvSchema, { PUBLIC_BASE_URL: 'https://example.com/jobs-api' }).PUBLIC_BASE_URL).toBe(
      'https://example.com/jobs-api',
    );
  });

  it('refuses what is no http(s) address of a host', () => {
    for (const bad of [
      'api.example.com',
      'ftp://api.example.com',
      'https://api.example.com/?x=1',
      'https://api.example.com/#docs',
    ]) {
      expect(() => loadConfig(GatewayEnvSchema, { PUBLIC_BASE_URL: bad })).toThrow(ConfigError);
    }
  });
});

describe('production secrets of the gateway', () => {
  it(
    'refuses to start in production with a development secret ' +
      '(admin token, cursor secret, webhook secrets key), naming ' +
      'each',
    () => {
      expect(() => loadConfig(GatewayEnvSchema, { NODE_ENV: 'production' })).toThrow(
        /ADMIN_TOKEN: required in production[\s\S]*CURSOR_SECRET: required/,
      );
      expect(() =>
        loadConfig(GatewayEnvSchema, {
          NODE_ENV: 'production',
          ADMIN_TOKEN: 'dev-admin-token',
          CURSOR_SECRET: 'c'.repeat(32),
        }),
      ).toThrow(/ADMIN_TOKEN: is the development default/);
      expect(() =>
        loadConfig(GatewayEnvSchema, {
          NODE_ENV: 'production',
          ADMIN_TOKEN: 'a'.repeat(32),
          CURSOR_SECRET: 'c'.repeat(32),
          WEBHOOK_SECRETS_KEY: 'dev-webhook-secrets-key-change-me',
        }),
      ).toThrow(/WEBHOOK_SECRETS_KEY: is the development default/);
      expect(() => loadConfig(GatewayEnvSchema, { LISTEN_HOST: '0.0.0.0' })).toThrow(ConfigError);
      expect(() => loadConfig(GatewayEnvSchema, {})).not.toThrow();
    },
  );
});

describe('PUBLIC_PRICING_URL', () => {
  it('defaults to the billing guide on this gateway, which exists wherever it runs', () => {
    expect(loadConfig(GatewayEnvSchema, {}).PUBLIC_PRICING_URL).toBe(
      'http://127.0.0.1:8080/docs/billing#more-credits-or-a-higher-plan',
    );
    expect(loadConfig(GatewayEnvSchema, { PUBLIC_BASE_URL: 'https://api.jobs-api.com/' }).PUBLIC_PRICING_URL).toBe(
      'https://api.jobs-api.com/docs/billing#more-credits-or-a-higher-plan',
    );
  });

  it("takes the operator's pricing page, and refuses what is no http(s) address", () => {
    expect(
      loadConfig(GatewayEnvSchema, { PUBLIC_PRICING_URL: 'https://jobs-api.com/pricing' }).PUBLIC_PRICING_URL,
    ).toBe('https://jobs-api.com/pricing');
    for (const bad of ['jobs-api.com/pricing', 'mailto:sales@jobs-api.com'])
      expect(() => loadConfig(GatewayEnvSchema, { PUBLIC_PRICING_URL: bad })).toThrow(/PUBLIC_PRICING_URL/);
  });

  it('refuses a placeholder in production', () => {
    const production = {
      NODE_ENV: 'production',
      ADMIN_TOKEN: 'a'.repeat(32),
      CURSOR_SECRET: 'c'.repeat(32),
      WEBHOOK_SECRETS_KEY: 'w'.repeat(32),
    };
    expect(() =>
      loadConfig(GatewayEnvSchema, { ...production, PUBLIC_PRICING_URL: 'https://jobdata.example/pricing' }),
    ).toThrow(/PUBLIC_PRICING_URL: points at jobdata\.example/);
    expect(
      loadConfig(GatewayEnvSchema, { ...production, PUBLIC_PRICING_URL: 'https://jobs-api.com/pricing' })
        .PUBLIC_PRICING_URL,
    ).toBe('https://jobs-api.com/pricing');
  });
});

describe('IDEMPOTENCY_LEASE_MS', () => {
  it('is at least the longest sync search wait: a retry never runs beside a search still to be charged', () => {
    expect(loadConfig(GatewayEnvSchema, {}).IDEMPOTENCY_LEASE_MS).toBe(60_000);
    expect(loadConfig(GatewayEnvSchema, { IDEMPOTENCY_LEASE_MS: '35000' }).IDEMPOTENCY_LEASE_MS).toBe(35_000);
    expect(() => loadConfig(GatewayEnvSchema, { IDEMPOTENCY_LEASE_MS: '34999' })).toThrow(ConfigError);
    expect(() =>
      loadConfig(GatewayEnvSchema, { IDEMPOTENCY_LEASE_MS: '40000', SEARCH_REPLY_GRACE_MS: '15000' }),
    ).toThrow(/IDEMPOTENCY_LEASE_MS/);
  });
});

describe('SEARCH_REPLY_GRACE_MS', () => {
  it('leaves a search answered at its deadline time to be charged before billing refuses it', () => {
    expect(loadConfig(GatewayEnvSchema, {}).SEARCH_REPLY_GRACE_MS).toBe(5_000);
    expect(loadConfig(GatewayEnvSchema, { SEARCH_REPLY_GRACE_MS: '4000' }).SEARCH_REPLY_GRACE_MS).toBe(4_000);
    expect(() => loadConfig(GatewayEnvSchema, { SEARCH_REPLY_GRACE_MS: '3999' })).toThrow(/SEARCH_REPLY_GRACE_MS/);
  });
});
