import { jest } from '@jest/globals';
import { OpenedSecrets } from './opened-secrets.js';
import { SealedSecretError, SecretBox } from './secret-box.js';

const owner = { accountId: 'acc_1', url: 'https://hooks.example.com/jobs' };
const secret = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

describe('OpenedSecrets (opened signing secrets kept for a bounded time)', () => {
  const box = new SecretBox('a-key-of-at-least-thirty-two-bytes-0123456789');

  it('opens a sealed value once while it is kept', () => {
    const sealed = box.seal(secret, owner);
    const open = jest.spyOn(box, 'open');
    const opened = new OpenedSecrets(box);
    expect(opened.open(sealed, owner)).toBe(secret);
    expect(opened.open(sealed, owner)).toBe(secret);
    expect(open).toHaveBeenCalledTimes(1);
    open.mockRestore();
  });

  it('opens a rotated secret (a new sealed value) afresh, never answering with the replaced one', () => {
    const opened = new OpenedSecrets(box);
    expect(opened.open(box.seal(secret, owner), owner)).toBe(secret);
    const rotated = 'whsec_rotatedrotatedrotatedrotatedrotatedrotated';
    expect(opened.open(box.seal(rotated, owner), owner)).toBe(rotated);
  });

  it("keeps the row in the key: a kept value does not open for another account's, URL's or mode's row", () => {
    const opened = new OpenedSecrets(box);
    const sealed = box.seal(secret, owner);
    expect(opened.open(sealed, owner)).toBe(secret);
    expect(() => opened.open(sealed, { ...owner, accountId: 'acc_2' })).toThrow(SealedSecretError);
    expect(() => opened.open(sealed, { ...owner, url: 'https://hooks.example.com/other' })).toThrow(SealedSecretError);
    expect(() => opened.open(sealed, { ...owner, mode: 'test' })).toThrow(SealedSecretError);
  });

  it('opens again once the kept secret is older than its time to live', () => {
    let now = 1_000_000;
    const sealed = box.seal(secret, owner);
    const open = jest.spyOn(box, 'open');
    const opened = new OpenedSecrets(box, { ttlMs: 60_000, now: () => now });
    opened.open(sealed, owner);
    now += 59_000;
    opened.open(sealed, owner);
    expect(open).toHaveBeenCalledTimes(1);
    now += 2_000;
    expect(opened.open(sealed, owner)).toBe(secret);
    expect(open).toHaveBeenCalledTimes(2);
    open.mockRestore();
  });

  it('keeps at most `max` rows, the least recently used going first', () => {
    const open = jest.spyOn(box, 'open');
    const opened = new OpenedSecrets(box, { max: 2 });
    const rows = ['a', 'b', 'c'].map((n) => ({ ...owner, url: `https://hooks.example.com/${n}` }));
    const sealed = rows.map((row) => box.seal(secret, row));
    rows.forEach((row, i) => opened.open(sealed[i]!, row));
    opened.open(sealed[2]!, rows[2]!);
    opened.open(sealed[0]!, rows[0]!);
    expect(open).toHaveBeenCalledTimes(4);
    open.mockRestore();
  });
});
