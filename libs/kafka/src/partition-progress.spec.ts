import { PartitionProgress } from './partition-progress.js';

describe('PartitionProgress', () => {
  it('commits up to the lowest offset still running, or one past the highest done', () => {
    const progress = new PartitionProgress();
    for (const offset of ['5', '6', '7']) progress.start(offset);
    progress.finish('6');
    // 5 was where the group stood when it was fetched: nothing new to commit while it runs
    expect(progress.commitable()).toBeUndefined();
    progress.finish('5');
    expect(progress.commitable()).toBe('7');
    progress.committedAt('7');
    progress.finish('7');
    expect(progress.commitable()).toBe('8');
    progress.committedAt('8');
    expect(progress.commitable()).toBeUndefined();
    expect(progress.idle).toBe(true);
  });
});
