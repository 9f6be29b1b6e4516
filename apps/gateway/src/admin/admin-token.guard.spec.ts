import { jest } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { inspect } from 'node:util';
import type { GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';

const TOKEN = 'admin-token-for-the-guard-spec-0123456789';

// The real comparison, watched: every call's arguments are kept.
const crypto = await import('node:crypto');
const timingSafeEqual = jest.fn(crypto.timingSafeEqual);
jest.unstable_mockModule('node:crypto', () => ({ ...crypto, timingSafeEqual }));
const { AdminTokenGuard } = await import('./admin-token.guard.js');

function guard() {
  const adminGuard = new AdminTokenGuard({ ADMIN_TOKEN: TOKEN } as GatewayConfig);
  const pass = (authorization?: string | string[]) => {
    const request = { headers: authorization === undefined ? {} : { authorization } };
    return adminGuard.canActivate({
      switchToHttp: () => ({ getRequest: () => request }),
    } as unknown as ExecutionContext);
  };
  return { adminGuard, pass };
}

function refusal(pass: () => boolean): string {
  try {
    pass();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'let through';
}

beforeEach(() => timingSafeEqual.mockClear());

describe('the admin token guard', () => {
  it('lets the exact bearer token through and refuses everything else with 401', () => {
    const { pass } = guard();
    expect(pass(`Bearer ${TOKEN}`)).toBe(true);
    for (const header of [
      undefined,
      '',
      'Bearer',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      TOKEN,
      `bearer ${TOKEN}`,
    ])
      expect(refusal(() => pass(header))).toBe('unauthorized');
    expect(refusal(() => pass([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]))).toBe('unauthorized');
  });

  it('compares 32-byte digests in constant time, whatever the length sent', () => {
    const { pass } = guard();
    const sent = ['', 'x', `Bearer ${TOKEN}`.replace(/.$/, '!'), 'y'.repeat(10_000), `Bearer ${TOKEN}`];
    for (const header of sent) refusal(() => pass(header));
    expect(timingSafeEqual).toHaveBeenCalledTimes(sent.length);
    for (const [given, expected] of timingSafeEqual.mock.calls) {
      expect((given as Buffer).length).toBe(32);
      expect((expected as Buffer).length).toBe(32);
    }
  });

  it('keeps only the digest of the token, never the token', () => {
    const { adminGuard } = guard();
    const held = Object.values(adminGuard).map((value) =>
      Buffer.isBuffer(value) ? value.toString('latin1') : inspect(value, { depth: 5 }),
    );
    expect(held.join('\n')).not.toContain(TOKEN);
  });
});
