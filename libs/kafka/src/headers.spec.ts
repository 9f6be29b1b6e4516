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

  it('data PostgreSQL refuses (SQLSTATE classes 22, 54) is refused again; its other failures are retried', async () => {
    const { isDeterministicFailure } = await import('./message-handling.js');
    // as Prisma's driver adapter reports it (a NUL in text)
    const prisma = (code: string) =>
      Object.assign(new Error('Raw query failed'), {
        name: 'PrismaClientKnownRequestError',
        code: 'P2010',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: code, kind: 'postgres' } } },
      });
    expect(isDeterministicFailure(prisma('22021'))).toBe(true);
    expect(isDeterministicFailure(prisma('22P02'))).toBe(true);
    // a value too large for its index
    expect(isDeterministicFailure(prisma('54000'))).toBe(true);
    expect(isDeterministicFailure(prisma('40001'))).toBe(false); // a serialization failure: try again
    expect(isDeterministicFailure(prisma('57P01'))).toBe(false); // the server shutting down
    // as pg reports it, wrapped once
    const pg = (code: string) => Object.assign(new Error('pg'), { code, severity: 'ERROR' });
    expect(isDeterministicFailure(new Error('wrapped', { cause: pg('22003') }))).toBe(true);
    expect(isDeterministicFailure(pg('53300'))).toBe(false);
    // a Node error code that merely starts with 22 is no SQLSTATE
    expect(isDeterministicFailure(Object.assign(new Error('x'), { code: '22000' }))).toBe(false);
  });
});
