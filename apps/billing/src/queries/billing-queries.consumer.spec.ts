import { jest } from '@jest/globals';
import type { BillingQueryRequested } from '@jobs/contracts';
import type { QueryAnswers } from '@jobs/nest-kafka';
import type { PrismaService } from '@jobs/db';
import type { Logger } from '@jobs/observability';
import type { AddCreditsUseCase } from '../accounts/add-credits.usecase.js';
import type { OpenAccountUseCase } from '../accounts/open-account.usecase.js';
import { BillingQueriesConsumer } from './billing-queries.consumer.js';
import type { ChargeCompanyUseCase } from './charge-company.usecase.js';
import type { ChargeJobUseCase } from './charge-job.usecase.js';
import type { ListLedgerUseCase } from './list-ledger.usecase.js';
import { ChargeExpired } from '../charges/account-charges.js';

/** The consumer with every use case a stub: what it runs, and what it answers when it runs nothing. */
function consumer({ expire = false, marked = [] as string[] } = {}) {
  const ran: string[] = [];
  const answered: Array<{ queryId: string; error?: { code: string } }> = [];
  const stub = (name: string) => ({
    execute: jest.fn(async () => {
      ran.push(name);
      if (expire) throw new ChargeExpired(0);
    }),
  });
  const answers = {
    answer: async (queryId: string, run: () => Promise<unknown>) => {
      try {
        await run();
        answered.push({ queryId });
      } catch (error) {
        answered.push({ queryId, error: { code: (error as { code: string }).code } });
      }
    },
  };
  const logger = { warn: jest.fn(), info: jest.fn(), error: jest.fn(), debug: jest.fn() };
  const it = new BillingQueriesConsumer(
    stub('ledger') as unknown as ListLedgerUseCase,
    stub('job.charge') as unknown as ChargeJobUseCase,
    stub('company.charge') as unknown as ChargeCompanyUseCase,
    stub('account.open') as unknown as OpenAccountUseCase,
    stub('credits.add') as unknown as AddCreditsUseCase,
    answers as unknown as QueryAnswers,
    {
      processedMessage: {
        count: async ({ where }: { where: { messageId: string } }) => (marked.includes(where.messageId) ? 1 : 0),
      },
    } as unknown as PrismaService,
    logger as unknown as Logger,
  );
  return { it, ran, answered, logger };
}

const query = (answerBy?: string): BillingQueryRequested.Value => ({
  v: 1,
  query_id: 'req_1',
  account_id: 'acc_1',
  mode: 'live',
  query: { kind: 'company.charge', domain: 'acme.example', operation: 'GET /v1/companies/acme.example' },
  ...(answerBy ? { answer_by: answerBy } : {}),
});

describe('billing queries and the moment their asker stops waiting', () => {
  const past = new Date(Date.now() - 1_000).toISOString();
  const future = new Date(Date.now() + 60_000).toISOString();

  it('charges a query that comes in time, or that names no moment', async () => {
    const { it: c, ran } = consumer();
    await c.onQuery(query(future));
    await c.onQuery(query());
    expect(ran).toEqual(['company.charge', 'company.charge']);
  });

  it('charges nothing once the gateway has stopped waiting, and answers internal_error', async () => {
    const { it: c, ran, answered, logger } = consumer();
    await c.onQuery(query(past));
    const job = { kind: 'job.charge', job_id: 'job_1', operation: 'GET /v1/jobs/job_1' } as const;
    await c.onQuery({ ...query(past), query: job });
    await c.onQuery({ ...query(past), query: { kind: 'credits.add', amount: 5 } });
    expect(ran).toEqual([]);
    expect(answered).toEqual(Array(3).fill({ queryId: 'req_1', error: { code: 'internal_error' } }));
    expect(logger.warn).toHaveBeenCalledTimes(3);
  });

  it('stays silent when the late query was made already: its own answer is in the outbox', async () => {
    const { it: c, ran, answered } = consumer({ marked: ['charge:req_1', 'credits:req_2'] });
    await c.onQuery(query(past));
    await c.onQuery({ ...query(past), query_id: 'req_2', query: { kind: 'credits.add', amount: 5 } });
    expect(ran).toEqual([]);
    expect(answered).toEqual([]);
    // another query of the same kind, never made: told nothing was charged
    await c.onQuery({ ...query(past), query_id: 'req_3' });
    expect(answered).toEqual([{ queryId: 'req_3', error: { code: 'internal_error' } }]);
  });

  it('still reads the ledger late: a read changes nothing', async () => {
    const { it: c, answered } = consumer();
    await c.onQuery({ ...query(past), query: { kind: 'ledger.list', limit: 10 } });
    expect(answered).toEqual([{ queryId: 'req_1' }]);
  });

  it('answers internal_error for a change that waited past the moment inside its transaction', async () => {
    const { it: c, ran, answered } = consumer({ expire: true });
    await c.onQuery(query(future));
    await c.onQuery({ ...query(future), query: { kind: 'credits.add', amount: 5 } });
    expect(ran).toEqual(['company.charge', 'credits.add']);
    expect(answered).toEqual(Array(2).fill({ queryId: 'req_1', error: { code: 'internal_error' } }));
  });
});
