import { z } from 'zod';
import { SharedEnvSchema } from './env.schema.js';
import { ConfigError, loadConfig } from './load-config.js';
import { publicUrlProblems } from './production-urls.js';

const STRONG = 'x'.repeat(32);
const WithPricing = SharedEnvSchema.extend({ PUBLIC_PRICING_URL: z.url().optional() });

const production = { NODE_ENV: 'production', CURSOR_SECRET: STRONG };

describe('public addresses in production', () => {
  it('accepts an https address of a real host, or none (the service then links its own page)', () => {
    expect(() =>
      loadConfig(WithPricing, { ...production, PUBLIC_PRICING_URL: 'https://jobs-api.com/pricing' }),
    ).not.toThrow();
    expect(() => loadConfig(WithPricing, production)).not.toThrow();
  });

  it.each([
    ['https://jobdata.example/pricing', 'points at jobdata.example'],
    ['https://www.example.com/pricing', 'points at www.example.com'],
    ['https://127.0.0.1:8080/docs/billing', 'points at 127.0.0.1'],
    ['https://10.1.2.3/pricing', 'points at 10.1.2.3'],
    ['http://jobs-api.com/pricing', 'use an https address'],
  ])('refuses %s, naming the variable', (value, reason) => {
    expect(() => loadConfig(WithPricing, { ...production, PUBLIC_PRICING_URL: value })).toThrow(ConfigError);
    expect(() => loadConfig(WithPricing, { ...production, PUBLIC_PRICING_URL: value })).toThrow(
      new RegExp(`PUBLIC_PRICING_URL: .*${reason.replace(/\./g, '\\.')}`),
    );
  });

  it('leaves development alone, and services that do not read the setting', () => {
    expect(() => loadConfig(WithPricing, { PUBLIC_PRICING_URL: 'http://127.0.0.1:8080/docs/billing' })).not.toThrow();
    expect(publicUrlProblems(new Set(), { PUBLIC_PRICING_URL: 'https://jobdata.example/pricing' })).toEqual([]);
  });
});
