import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config.js';
import { SharedEnvSchema } from './env.schema.js';

describe('loadConfig', () => {
  it('applies the operator defaults', () => {
    const cfg = loadConfig(SharedEnvSchema, {});
    expect(cfg.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(cfg.KAFKA_BROKERS).toEqual(['127.0.0.1:19092']);
    expect(Object.isFrozen(cfg)).toBe(true);
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
