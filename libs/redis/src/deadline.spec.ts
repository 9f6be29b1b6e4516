import type { Redis } from 'ioredis';
import { callRedis, withinDeadline } from './deadline.js';

describe('a Redis call within a deadline', () => {
  it('answers what the call answers in time', async () => {
    await expect(withinDeadline(Promise.resolve('OK'), 50, 'get')).resolves.toBe('OK');
    await expect(withinDeadline(Promise.reject(new Error('connection closed')), 50, 'get')).rejects.toThrow(
      'connection closed',
    );
  });

  it('gives up on a call that never answers, naming it', async () => {
    await expect(withinDeadline(new Promise(() => undefined), 10, 'API-key cache')).rejects.toThrow(
      'API-key cache: no answer from Redis within 10 ms',
    );
  });

  it('refuses at once while the client is not connected, without issuing the call', async () => {
    let calls = 0;
    const call = async () => {
      calls++;
      return 'OK';
    };
    await expect(callRedis({ status: 'reconnecting' } as Redis, call, 1000, 'claim')).rejects.toThrow(
      'claim: Redis is not connected (reconnecting)',
    );
    expect(calls).toBe(0);
    await expect(callRedis({ status: 'ready' } as Redis, call, 1000, 'claim')).resolves.toBe('OK');
    expect(calls).toBe(1);
  });
});
