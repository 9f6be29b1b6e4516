import { redisStatement } from './redis-statement.js';

describe('redisStatement', () => {
  it('names the command and its first arguments', () => {
    expect(redisStatement('get', ['orchestrator:search:s_1'])).toBe('get orchestrator:search:s_1');
    expect(redisStatement('ping', [])).toBe('ping');
  });

  it(
    'shows a long argument (a script, a JSON value) by its length ' + 'only, and counts the arguments past the third',
    () => {
      const script = `local state = redis.call('GET', KEYS[3])\n${'-- '.repeat(40)}`;
      const message = JSON.stringify({
        jobs: Array.from({ length: 50 }, (_, i) => ({ id: `job_${i}`, title: 'Engineer' })),
      });
      expect(redisStatement('eval', [script, 3, 'a:pending', 'a:batches', 'a', 900, message])).toBe(
        `eval [${script.length} chars] 3 a:pending [4 other arguments]`,
      );
      expect(redisStatement('set', ['k', Buffer.alloc(100)])).toBe('set k [100 bytes]');
    },
  );
});
