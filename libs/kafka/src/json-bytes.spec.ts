import { jsonBytes, jsonText } from './json-bytes.js';

const same = (value: unknown) => {
  expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
  expect(jsonText(value)).toBe(JSON.stringify(value));
};

describe('jsonBytes and jsonText', () => {
  it('writes exactly the bytes of JSON.stringify for every kind of JSON value at the root', () => {
    for (const value of [
      null,
      true,
      0,
      -1.5e-7,
      'plain',
      'dash \u2014 and \u{1F680}',
      [],
      {},
      [1, 'a', null],
      { a: 1 },
    ])
      same(value);
  });

  it('leaves out what JSON.stringify leaves out, in objects and arrays alike, and keeps the property order', () => {
    same({
      b: 1,
      a: undefined,
      f: () => 1,
      s: Symbol('x'),
      2: 'two',
      1: 'one',
      list: [undefined, () => 1, Symbol('y'), 3],
    });
    same({ only: undefined });
    same([[], [[]], {}, [{}]]);
  });

  it('honours toJSON wherever it is (a Date at the root, in an array, in a nested object)', () => {
    const at = new Date('2026-11-27T10:00:00.000Z');
    same(at);
    same({ at, list: [at, { at }], custom: { toJSON: () => ({ replaced: true }) } });
  });

  it('serializes a message of many records with characters above U+00FF exactly as a whole', () => {
    const records = Array.from({ length: 150 }, (_, i) => ({
      id: `rec_${i}`,
      title: i % 37 === 0 ? 'Engineer \u2014 Platform \u201cCore\u201d' : 'Engineer',
      description:
        i % 11 === 0 ? 'Caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00fcber \u65e5\u672c' : 'plain text '.repeat(20),
      salary: i % 2 === 0 ? { min: 1000, max: null, currency: 'EUR' } : null,
      tags: ['a', i, undefined],
      seen_at: new Date(Date.UTC(2026, 10, 27, 0, 0, i)),
    }));
    const message = {
      v: 1,
      search_id: 's_1',
      batches: [
        { provider: 'provider_a', records },
        { provider: 'provider_b', records: [] },
      ],
      note: undefined,
    };
    expect(jsonBytes(message).equals(Buffer.from(JSON.stringify(message), 'utf8'))).toBe(true);
    expect(jsonText(message)).toBe(JSON.stringify(message));
  });

  it('throws where JSON.stringify throws (a BigInt)', () => {
    expect(() => jsonBytes({ n: 1n })).toThrow(TypeError);
    expect(() => jsonText({ n: 1n })).toThrow(TypeError);
  });
});
