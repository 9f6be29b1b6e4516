import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes the items of one tick together, and items submitted during a write in the next one', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const commit = new GroupCommit<number, string>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await held;
      return items.map((n) => `ok ${n}`);
    }, 100);
    const first = [1, 2, 3].map((n) => commit.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [4, 5].map((n) => commit.submit(n));
    expect(writes).toEqual([[1, 2, 3]]);
    release();
    await expect(Promise.all([...first, ...later])).resolves.toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('caps a write at maxBatch items', async () => {
    const writes: number[][] = [];
    const commit = new GroupCommit<number, number>(async (items) => (writes.push(items), items), 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
    expect(writes).toEqual([[1, 2], [3, 4], [5]]);
  });

  it(
    'gives an item its own error, and a failed write to every ' + 'item of its batch; the next batch still goes',
    async () => {
      let fail = true;
      const commit = new GroupCommit<number, number>(async (items) => {
        if (fail) {
          fail = false;
          throw new Error('database down');
        }
        return items.map((n) => (n === 2 ? new RangeError('no such thing') : n));
      }, 10);
      const doomed = [commit.submit(7), commit.submit(8)];
      await expect(Promise.allSettled(doomed)).resolves.toEqual([
        { status: 'rejected', reason: new Error('database down') },
        { status: 'rejected', reason: new Error('database down') },
      ]);
      await expect(commit.submit(1)).resolves.toBe(1);
      const [one, two] = await Promise.allSettled([commit.submit(1), commit.submit(2)]);
      expect(one).toEqual({ status: 'fulfilled', value: 1 });
      expect(two).toMatchObject({ status: 'rejected', reason: { name: 'RangeError' } });
      await commit.flushed();
    },
  );

  it('writes a batch one item refuses again in halves: that item gets the error, the rest are written', async () => {
    const writes: number[][] = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        if (items.includes(5)) throw new RangeError('a date out of range');
        if (items.includes(99)) throw new Error('database down');
        return items;
      },
      10,
      (error) => error instanceof RangeError,
    );
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7, 8].map((n) => commit.submit(n)));
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    // halves down to the item: 8, then 4 + 4, then 2 + 2 of the bad half, then 1 + 1
    expect(writes).toHaveLength(7);
    // a failure that is no one item's fails its batch at once, without halves
    writes.length = 0;
    const down = await Promise.allSettled([98, 99].map((n) => commit.submit(n)));
    expect(down.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(writes).toEqual([[98, 99]]);
  });
});
