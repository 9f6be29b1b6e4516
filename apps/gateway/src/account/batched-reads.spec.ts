import { AsyncLocalStorage } from 'node:async_hooks';
import { BatchedReads } from './batched-reads.js';

/** A store whose statements the test answers by hand: each call records its keys and waits. */
function store(initial: Record<string, number>) {
  const values = new Map(Object.entries(initial));
  const statements: Array<{ keys: string[]; answer: () => void; fail: (error: Error) => void }> = [];
  const readMany = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      statements.push({
        keys,
        // The statement's snapshot is taken when the test answers it, as the database takes it when the statement
        // arrives.
        answer: () => resolve(new Map(keys.filter((k) => values.has(k)).map((k) => [k, values.get(k)!]))),
        fail: reject,
      });
    });
  return { values, statements, readMany };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedReads', () => {
  it('sends a lone read at once', async () => {
    const { statements, readMany } = store({ a: 1 });
    const reads = new BatchedReads(readMany);
    const a = reads.read('a');
    await tick();
    expect(statements.map((s) => s.keys)).toEqual([['a']]);
    statements[0]!.answer();
    await expect(a).resolves.toBe(1);
  });

  it('carries every read asked for while a statement is out in the next one, each key once', async () => {
    const { statements, readMany } = store({ a: 1, b: 2 });
    const reads = new BatchedReads(readMany);
    const first = reads.read('a');
    await tick();
    const waiting = [reads.read('a'), reads.read('b'), reads.read('a'), reads.read('missing')];
    await tick();
    expect(statements).toHaveLength(1);
    statements[0]!.answer();
    await expect(first).resolves.toBe(1);
    await tick();
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['a', 'b', 'missing']]);
    statements[1]!.answer();
    await expect(Promise.all(waiting)).resolves.toEqual([1, 2, 1, undefined]);
  });

  it('never answers a read from a statement sent before it was asked for', async () => {
    const { values, statements, readMany } = store({ a: 10 });
    const reads = new BatchedReads(readMany);
    const before = reads.read('a');
    await tick();
    // The statement is out; a charge commits and its answer reaches the caller, who reads again.
    statements[0]!.answer();
    values.set('a', 7);
    const after = reads.read('a');
    await expect(before).resolves.toBe(10);
    await tick();
    expect(statements).toHaveLength(2);
    statements[1]!.answer();
    await expect(after).resolves.toBe(7);
  });

  it('fails only the reads of a failed statement; the next statement goes on', async () => {
    const { statements, readMany } = store({ a: 1 });
    const reads = new BatchedReads(readMany);
    const failed = reads.read('a');
    await tick();
    const next = reads.read('a');
    statements[0]!.fail(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    await tick();
    statements[1]!.answer();
    await expect(next).resolves.toBe(1);
  });

  it('sends at most maxKeys keys per statement', async () => {
    const { statements, readMany } = store({ a: 1, b: 2, c: 3 });
    const reads = new BatchedReads(readMany, 2);
    const all = Promise.all([reads.read('a'), reads.read('b'), reads.read('c')]);
    await tick();
    statements[0]!.answer();
    await tick();
    statements[1]!.answer();
    await expect(all).resolves.toEqual([1, 2, 3]);
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b', 'c']]);
  });

  it('runs each statement in the async context of its first read', async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const reads = new BatchedReads(async (keys: string[]) => {
      seen.push(storage.getStore());
      return new Map(keys.map((k) => [k, 0]));
    });
    await storage.run('request-1', () => reads.read('a'));
    await Promise.all([
      storage.run('request-2', () => reads.read('a')),
      storage.run('request-3', () => reads.read('b')),
    ]);
    expect(seen[0]).toBe('request-1');
    expect(seen).toContain('request-2');
    expect(seen).not.toContain(undefined);
  });
});
