import { SealedSecretError, SecretBox } from '@jobs/webhook-targets';
import { ReplaySealer } from './replay-sealer.js';

const sealer = new ReplaySealer(new SecretBox('test-webhook-secrets-key-0123456789abcdef'));
const secret = 'whsec_s3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3c';
const answer = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ url: 'https://hooks.example.com/a', secret }),
};
const key = 'gateway:idem:acc_1:0123abcd';

describe('ReplaySealer', () => {
  it('keeps nothing of the secret in what is stored, and a replay opens the same bytes', () => {
    const stored = sealer.seal(key, answer);
    expect(stored.sealed).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('s3cr3t');
    expect(stored.status).toBe(200);
    expect(sealer.open(key, stored)).toEqual(answer);
  });

  it('does not open under another record: a sealed answer copied to another key is refused', () => {
    expect(() => sealer.open('gateway:idem:acc_2:0123abcd', sealer.seal(key, answer))).toThrow(SealedSecretError);
  });

  it('passes an answer stored in clear through unchanged', () => {
    expect(sealer.open(key, answer)).toBe(answer);
  });
});
