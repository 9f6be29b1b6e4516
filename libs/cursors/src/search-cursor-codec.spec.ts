import { CursorCodec } from './cursor-codec.js';
import { SearchCursorCodec } from './search-cursor-codec.js';

describe('SearchCursorCodec', () => {
  const codec = new SearchCursorCodec('a-test-secret-of-length');
  const position = { set: 'req_1', offset: 25, fingerprint: 'fp' };

  it('reads back what it minted, for the same account only', () => {
    const cursor = codec.mint('acc_1', position);
    expect(codec.read('acc_1', cursor)).toEqual(position);
    expect(codec.read('acc_2', cursor)).toBeNull();
  });

  it('refuses a cursor minted with another secret or for another listing', () => {
    expect(codec.read('acc_1', new SearchCursorCodec('another-secret-of-length').mint('acc_1', position))).toBeNull();
    const ledger = new CursorCodec('a-test-secret-of-length').encode('ledger:acc_1:*', position);
    expect(codec.read('acc_1', ledger)).toBeNull();
  });

  it('refuses a signed position that is not a search position', () => {
    const signed = new CursorCodec('a-test-secret-of-length').encode('search:acc_1', { ...position, offset: -1 });
    expect(codec.read('acc_1', signed)).toBeNull();
  });
});
