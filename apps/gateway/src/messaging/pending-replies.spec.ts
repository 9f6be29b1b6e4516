import { PendingReplies, ReplyTimeout } from './pending-replies.js';

describe('PendingReplies', () => {
  it('settles the waiter of an id, and only once', async () => {
    const replies = new PendingReplies<string>();
    const answer = replies.wait('req_1', 1000);
    expect(replies.settle('req_2', 'other')).toBe(false);
    expect(replies.settle('req_1', 'yes')).toBe(true);
    expect(replies.settle('req_1', 'again')).toBe(false);
    await expect(answer).resolves.toBe('yes');
    expect(replies.pending).toBe(0);
  });

  it('leaves the waiter waiting for a reply it does not accept', async () => {
    const replies = new PendingReplies<string>();
    const answer = replies.wait('req_1', 1000, (reply) => reply.startsWith('charge'));
    expect(replies.settle('req_1', 'read')).toBe(false);
    expect(replies.isWaiting('req_1')).toBe(true);
    expect(replies.settle('req_1', 'charge')).toBe(true);
    await expect(answer).resolves.toBe('charge');
  });

  it('times out and forgets the waiter', async () => {
    const replies = new PendingReplies<string>();
    await expect(replies.wait('req_1', 10)).rejects.toBeInstanceOf(ReplyTimeout);
    expect(replies.pending).toBe(0);
  });

  it('a timeout before the caller awaits (its publish still retrying) is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const replies = new PendingReplies<string>();
      const answer = replies.wait('req_1', 1);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the publish, slower than the timeout
      expect(unhandled).toEqual([]);
      await expect(answer).rejects.toBeInstanceOf(ReplyTimeout);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
