import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config.js';
import { databaseUrlSetting, SharedEnvSchema } from './env.schema.js';

describe('loadConfig', () => {
  it('applies the operator defaults', () => {
    const cfg = loadConfig(SharedEnvSchema, {});
    expect(cfg.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(cfg.KAFKA_BROKERS).toEqual(['127.0.0.1:19092']);
    expect(Object.isFrozen(cfg)).toBe(true);
  });

  it("defaults a service's DATABASE_URL to its own role on the local server, and takes only postgresql:// URLs", () => {
    const schema = SharedEnvSchema.extend({ DATABASE_URL: databaseUrlSetting('jobs_billing') });
    expect(loadConfig(schema, {}).DATABASE_URL).toBe('postgresql://jobs_billing@127.0.0.1:5432/jobs');
    expect(loadConfig(schema, { DATABASE_URL: 'postgres://jobs_billing:pw@db:5432/jobs' }).DATABASE_URL).toBe(
      'postgres://jobs_billing:pw@db:5432/jobs',
    );
    expect(() => loadConfig(schema, { DATABASE_URL: 'http://db/jobs' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig(schema, { DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });

  it('splits KAFKA_BROKERS and treats empty strings as unset', () => {
    const cfg = loadConfig(SharedEnvSchema, { KAFKA_BROKERS: 'a:1, b:2', REDIS_URL: '' });
    expect(cfg.KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
    expect(cfg.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('names the bad variable without echoing its value', () => {
    const schema = SharedEnvSchema.extend({ ADMIN_TOKEN: z.string().min(12) });
    let error: unknown;
    try {
      loadConfig(schema, { ADMIN_TOKEN: 's3cr3t', KAFKA_BROKERS: 'nohostport' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('ADMIN_TOKEN');
    expect(message).toContain('KAFKA_BROKERS');
    expect(message).not.toContain('s3cr3t');
  });
});
