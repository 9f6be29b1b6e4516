import { isSealed, SealedSecretError, SecretBox, SEALED_PREFIX } from './secret-box.js';

const owner = { accountId: 'acc_1', url: 'https://hooks.example.com/jobs' };
const secret = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

describe('SecretBox (AES-256-GCM under WEBHOOK_SECRETS_KEY)', () => {
  const box = new SecretBox('a-key-of-at-least-thirty-two-bytes-0123456789');

  it('seals a secret so that nothing of it shows, and opens it again', () => {
    const sealed = box.seal(secret, owner);
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed, owner)).toBe(secret);
  });

  it('uses a fresh IV each time: the same secret never seals to the same text', () => {
    expect(box.seal(secret, owner)).not.toBe(box.seal(secret, owner));
  });

  it('does not open under another key', () => {
    const sealed = box.seal(secret, owner);
    expect(() => new SecretBox('another-key-of-at-least-thirty-two-bytes-01').open(sealed, owner)).toThrow(
      SealedSecretError,
    );
  });

  it("does not open on another row: a sealed value copied to another account's or URL's row is refused", () => {
    const sealed = box.seal(secret, owner);
    expect(() => box.open(sealed, { ...owner, accountId: 'acc_2' })).toThrow(SealedSecretError);
    expect(() => box.open(sealed, { ...owner, url: 'https://hooks.example.com/other' })).toThrow(SealedSecretError);
  });

  it(
    "binds a test row's mode: live and test values of one URL do " +
      "not open on each other's row; a live row reads as before " +
      'modes',
    () => {
      const test = { ...owner, mode: 'test' as const };
      expect(() => box.open(box.seal(secret, owner), test)).toThrow(SealedSecretError);
      expect(() => box.open(box.seal(secret, test), owner)).toThrow(SealedSecretError);
      expect(box.open(box.seal(secret, test), test)).toBe(secret);
      // live rows sealed without a mode (before modes existed) still open as live
      expect(box.open(box.seal(secret, owner), { ...owner, mode: 'live' })).toBe(secret);
    },
  );

  it('refuses a tampered or truncated value', () => {
    const sealed = box.seal(secret, owner);
    const parts = sealed.slice(SEALED_PREFIX.length).split('.');
    const ciphertext = Buffer.from(parts[2]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 1;
    expect(() =>
      box.open(`${SEALED_PREFIX}${parts[0]}.${parts[1]}.${ciphertext.toString('base64url')}`, owner),
    ).toThrow(SealedSecretError);
    expect(() => box.open(`${SEALED_PREFIX}${parts[0]}.${parts[1]}`, owner)).toThrow(SealedSecretError);
    expect(() => box.open(`${SEALED_PREFIX}AAAA.${parts[1]}.${parts[2]}`, owner)).toThrow(SealedSecretError);
  });

  it('reads a legacy plain secret as it is (it is sealed when its row is next written)', () => {
    expect(isSealed(secret)).toBe(false);
    expect(box.open(secret, owner)).toBe(secret);
  });

  it('needs a key', () => {
    expect(() => new SecretBox('')).toThrow(RangeError);
  });
});
