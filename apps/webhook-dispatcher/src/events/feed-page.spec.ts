import { CursorCodec } from '@jobs/cursors';
import { nextCursor, positionAfter } from './feed-page.js';

const codec = new CursorCodec('feed-test-secret-0123456789');

describe('feed cursors', () => {
  it('starts at the beginning without since', () => {
    expect(positionAfter(codec, 'acc_a', undefined)).toBe(0n);
  });

  it('continues right after the last event of the previous page', () => {
    const cursor = nextCursor(codec, 'acc_a', 41n)!;
    expect(cursor).toMatch(/^cur_/);
    expect(positionAfter(codec, 'acc_a', cursor)).toBe(41n);
    expect(positionAfter(codec, 'acc_a', nextCursor(codec, 'acc_a', 9_007_199_254_740_993n)!)).toBe(
      9_007_199_254_740_993n,
    );
  });

  it('has no next cursor for an empty page', () => {
    expect(nextCursor(codec, 'acc_a', null)).toBeNull();
  });

  it('refuses a cursor of another account, a tampered one and one signed with another secret', () => {
    const cursor = nextCursor(codec, 'acc_a', 5n)!;
    expect(positionAfter(codec, 'acc_b', cursor)).toBeNull();
    const flipped = `${cursor.slice(0, 6)}${cursor[6] === 'A' ? 'B' : 'A'}${cursor.slice(7)}`;
    expect(positionAfter(codec, 'acc_a', flipped)).toBeNull();
    expect(
      positionAfter(codec, 'acc_a', new CursorCodec('another-secret-0123456789').encode('events:acc_a', { p: '5' })),
    ).toBeNull();
  });

  it('refuses a well-signed position that is not a feed position', () => {
    expect(positionAfter(codec, 'acc_a', codec.encode('events:acc_a', { p: '-1' }))).toBeNull();
    expect(positionAfter(codec, 'acc_a', codec.encode('events:acc_a', { p: 5 }))).toBeNull();
    expect(positionAfter(codec, 'acc_a', codec.encode('events:acc_a', { at: 'x' }))).toBeNull();
  });
});
