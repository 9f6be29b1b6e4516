import { generateWebhookSecret } from './webhook-secret.js';

describe('generateWebhookSecret', () => {
  it('is whsec_ and 256 random bits in base64url', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
  });

  it('never repeats', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(1000);
  });
});
