import { PartitionLag } from './consumer-metrics.js';

describe('PartitionLag', () => {
  it('keeps the last lag kafkajs reported for each partition', () => {
    const lag = new PartitionLag();
    lag.record('search.requested', 0, '7');
    lag.record('search.requested', 1, '2');
    lag.record('search.requested', 0, '0');
    expect(lag.rows()).toEqual([
      { topic: 'search.requested', partition: 0, lag: 0 },
      { topic: 'search.requested', partition: 1, lag: 2 },
    ]);
  });

  it('never reports a negative or unreadable lag (an empty batch of a compacted or fresh partition)', () => {
    const lag = new PartitionLag();
    lag.record('a', 0, '-1');
    lag.record('a', 1, 'NaN');
    expect(lag.rows()).toEqual([{ topic: 'a', partition: 0, lag: 0 }]);
  });

  it('forgets the partitions a rebalance gave to another member', () => {
    const lag = new PartitionLag();
    lag.record('a', 0, '3');
    lag.record('a', 1, '4');
    lag.record('b', 0, '5');
    lag.retain({ a: [1], c: [0] });
    expect(lag.rows()).toEqual([{ topic: 'a', partition: 1, lag: 4 }]);
  });
});
