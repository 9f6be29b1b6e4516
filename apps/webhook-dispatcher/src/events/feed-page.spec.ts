import { CursorCodec } from '@jobs/cursors';
import { nextCursor, positionAfter } from './feed-page.js';

const codec = new CursorCodec('feed-test-secret-0123456789');
const liveA = { accountId: 'acc_a', mode: 'live' } as const;
const testA = { accountId: 'acc_a', mode: 'test' } as const;

describe('feed cursors', () => {
  it('starts at the beginning without since', () => {
    expect(positionAfter(codec, liveA, undefined)).toBe(0n);
  });

  it('continues right after the last event of the previous page', () => {
    const cursor = nextCursor(codec, liveA, 41n)!;
    expect(cursor).toMatch(/^cur_/);
    expect(positionAfter(codec, liveA, cursor)).toBe(41n);
    expect(positionAfter(codec, liveA, nextCursor(codec, liveA, 9_007_199_254_740_993n)!)).toBe(9_007_199_254_740_993n);
  });

  it('has no next cursor for an empty page', () => {
    expect(nextCursor(codec, liveA, null)).toBeNull();
  });

  it('refuses a cursor of another account, a tampered one and one signed with another secret', () => {
    const cursor = nextCursor(codec, liveA, 5n)!;
    expect(positionAfter(codec, { accountId: 'acc_b', mode: 'live' }, cursor)).toBeNull();
    const flipped = `${cursor.slice(0, 6)}${cursor[6] === 'A' ? 'B' : 'A'}${cursor.slice(7)}`;
    expect(positionAfter(codec, liveA, flipped)).toBeNull();
    expect(
      positionAfter(codec, liveA, new CursorCodec('another-secret-0123456789').encode('events:acc_a', { p: '5' })),
    ).toBeNull();
  });

  it("refuses the test feed's cursor to the live feed and the live feed's to the test feed", () => {
    const test = nextCursor(codec, testA, 7n)!;
    expect(positionAfter(codec, testA, test)).toBe(7n);
    expect(positionAfter(codec, liveA, test)).toBeNull();
    // a test cursor issued before the test feed had a scope of its own still reads the test feed
    expect(positionAfter(codec, testA, nextCursor(codec, liveA, 7n)!)).toBe(7n);
  });

  it('refuses a well-signed position that is not a feed position', () => {
    expect(positionAfter(codec, liveA, codec.encode('events:acc_a', { p: '-1' }))).toBeNull();
    expect(positionAfter(codec, liveA, codec.encode('events:acc_a', { p: 5 }))).toBeNull();
    expect(positionAfter(codec, liveA, codec.encode('events:acc_a', { at: 'x' }))).toBeNull();
  });
});
