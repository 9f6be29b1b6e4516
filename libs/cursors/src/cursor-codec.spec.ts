import { z } from 'zod';
import { CursorCodec } from './cursor-codec.js';

const Position = z.strictObject({ at: z.iso.datetime().optional(), id: z.string().startsWith('led_') });
const Anything = z.unknown();

describe('CursorCodec', () => {
  const codec = new CursorCodec('a-test-secret-of-length');

  it('round-trips a position inside its scope', () => {
    const cursor = codec.encode('ledger:acc_1', { at: '2026-11-22T08:00:00.000Z', id: 'led_1' });
    expect(cursor).toMatch(/^cur_[A-Za-z0-9_-]+$/);
    expect(codec.decode('ledger:acc_1', cursor, Position)).toEqual({ at: '2026-11-22T08:00:00.000Z', id: 'led_1' });
  });

  it('refuses a cursor from another scope, a tampered one and garbage', () => {
    const cursor = codec.encode('ledger:acc_1', { id: 'led_1' });
    expect(codec.decode('ledger:acc_2', cursor, Position)).toBeNull();
    const mac = cursor.slice(-22);
    const forged = `cur_${Buffer.from(JSON.stringify({ id: 'led_9' })).toString('base64url')}${mac}`;
    expect(codec.decode('ledger:acc_1', forged, Position)).toBeNull();
    expect(codec.decode('ledger:acc_1', cursor.slice(0, -1), Position)).toBeNull();
    expect(codec.decode('ledger:acc_1', 'cur_short', Position)).toBeNull();
    expect(codec.decode('ledger:acc_1', 'nope', Position)).toBeNull();
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new CursorCodec('another-secret-value');
    expect(codec.decode('s', other.encode('s', { a: 1 }), Anything)).toBeNull();
  });

  it("refuses a genuine cursor whose position does not fit the listing's schema", () => {
    expect(
      codec.decode('ledger:acc_1', codec.encode('ledger:acc_1', { at: 'not a date', id: 'led_1' }), Position),
    ).toBeNull();
    expect(codec.decode('ledger:acc_1', codec.encode('ledger:acc_1', { id: 'led_1', extra: 1 }), Position)).toBeNull();
    expect(codec.decode('ledger:acc_1', codec.encode('ledger:acc_1', ['led_1']), Position)).toBeNull();
  });
});
