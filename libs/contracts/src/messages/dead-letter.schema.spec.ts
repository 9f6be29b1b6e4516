import { examples } from '../examples.js';
import * as DeadLetter from './dead-letter.schema.js';

describe('dead-letter value (generic)', () => {
  const example = examples.deadLetter;
  it('parses its example unchanged', () => expect(DeadLetter.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(DeadLetter.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(DeadLetter.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () => expect(DeadLetter.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(DeadLetter.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(DeadLetter.keyOf(example()).length).toBeGreaterThan(0));
});

describe('dead-letter', () => {
  it('keys by the original key, or by topic/partition/offset when it had none', () => {
    expect(DeadLetter.keyOf(examples.deadLetter())).toBe('req_123');
    expect(DeadLetter.keyOf({ ...examples.deadLetter(), key: null })).toBe('search.requested/4/1024');
  });
  it('keeps offsets as decimal strings', () => {
    expect(DeadLetter.ValueSchema.safeParse({ ...examples.deadLetter(), offset: 1024 }).success).toBe(false);
    expect(DeadLetter.ValueSchema.safeParse({ ...examples.deadLetter(), offset: '-1' }).success).toBe(false);
  });
});
