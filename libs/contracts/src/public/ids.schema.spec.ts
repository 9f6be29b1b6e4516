import {
  AccountIdSchema,
  CompanyIdSchema,
  CursorSchema,
  EventIdSchema,
  ID_PREFIXES,
  JobIdSchema,
  LedgerEntryIdSchema,
  RequestIdSchema,
  SearchIdSchema,
  WatchIdSchema,
} from './ids.schema.js';

const cases = [
  [JobIdSchema, 'job_'],
  [CompanyIdSchema, 'cmp_'],
  [SearchIdSchema, 'srch_'],
  [WatchIdSchema, 'wat_'],
  [EventIdSchema, 'evt_'],
  [LedgerEntryIdSchema, 'led_'],
  [RequestIdSchema, 'req_'],
  [CursorSchema, 'cur_'],
  [AccountIdSchema, 'acc_'],
] as const;

describe('prefixed ids', () => {
  it('covers every declared prefix', () => {
    expect(cases.map(([, prefix]) => prefix).sort()).toEqual(Object.values(ID_PREFIXES).sort());
  });

  it.each(cases)('%# accepts its own prefix and an opaque tail', (schema, prefix) => {
    expect(schema.safeParse(`${prefix}01J9Z-x_Y`).success).toBe(true);
    expect(schema.safeParse(`${prefix}${'a'.repeat(128)}`).success).toBe(true);
  });

  it.each(cases)('%# rejects an empty or too long tail, other characters and bare tails', (schema, prefix) => {
    expect(schema.safeParse(prefix).success).toBe(false);
    // Cursors carry a signed position and may be longer than ids.
    const longest = prefix === 'cur_' ? 1024 : 128;
    expect(schema.safeParse(`${prefix}${'a'.repeat(longest)}`).success).toBe(true);
    expect(schema.safeParse(`${prefix}${'a'.repeat(longest + 1)}`).success).toBe(false);
    expect(schema.safeParse(`${prefix}a b`).success).toBe(false);
    expect(schema.safeParse(`${prefix}a/b`).success).toBe(false);
    expect(schema.safeParse('abc').success).toBe(false);
    expect(schema.safeParse(`x${prefix}abc`).success).toBe(false);
  });

  it.each(cases)('%# rejects every other prefix', (schema, prefix) => {
    for (const [, other] of cases) {
      if (other !== prefix) expect(schema.safeParse(`${other}abc`).success).toBe(false);
    }
  });

  it('names the expected prefix in the message', () => {
    expect(JobIdSchema.safeParse('cmp_1').error?.issues[0]?.message).toContain('job_');
  });
});
