import { appendStage, decodeHeaders, parseStages } from './headers.js';

describe('message headers', () => {
  it('decodes buffers, strings and repeated headers (last wins)', () => {
    expect(
      decodeHeaders({ a: Buffer.from('x'), b: 'y', c: [Buffer.from('1'), Buffer.from('2')], d: undefined }),
    ).toEqual({ a: 'x', b: 'y', c: '2' });
  });

  it('appends the producing stage once', () => {
    expect(appendStage([], 'gateway')).toEqual(['gateway']);
    expect(appendStage(['gateway'], 'search-orchestrator')).toEqual(['gateway', 'search-orchestrator']);
    expect(appendStage(['gateway', 'search-orchestrator'], 'search-orchestrator')).toEqual([
      'gateway',
      'search-orchestrator',
    ]);
    // A service seen earlier in the path is a new hop when it handles the work again.
    expect(appendStage(['gateway', 'search-orchestrator', 'dedupe'], 'search-orchestrator')).toHaveLength(4);
  });

  it('parses the stage list', () => {
    expect(parseStages('gateway,dedupe')).toEqual(['gateway', 'dedupe']);
    expect(parseStages(undefined)).toEqual([]);
    expect(parseStages('')).toEqual([]);
  });
});

describe('isDeterministicFailure', () => {
  it('sends bugs and broken data to the dead letter, retries the rest', async () => {
    const { isDeterministicFailure, NonRetriableError } = await import('./message-handling.js');
    const zodError = Object.assign(new Error('bad'), { name: 'ZodError' });
    expect(isDeterministicFailure(zodError)).toBe(true);
    expect(isDeterministicFailure(new TypeError('x is undefined'))).toBe(true);
    expect(isDeterministicFailure(new NonRetriableError('unknown account'))).toBe(true);
    expect(isDeterministicFailure(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
  });

  it('a message the broker refuses as too large would be refused again: dead letter, not redelivery', async () => {
    const { isDeterministicFailure } = await import('./message-handling.js');
    const refused = (type: string, code: number) =>
      Object.assign(new Error(`the broker answered ${type}`), { name: 'KafkaJSProtocolError', type, code });
    expect(isDeterministicFailure(refused('MESSAGE_TOO_LARGE', 10))).toBe(true);
    expect(isDeterministicFailure(refused('RECORD_LIST_TOO_LARGE', 18))).toBe(true);
    expect(isDeterministicFailure(refused('NOT_LEADER_FOR_PARTITION', 6))).toBe(false);
  });
});
