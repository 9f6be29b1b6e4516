import { Kafka, logLevel } from 'kafkajs';
import { examples, Topics, type BillingPageChargeRequested, type BillingQueryRequested } from '@jobs/contracts';
import { api, createAccount, stack, TopicTap } from '@jobs/e2e-support';

/**
 * A billing query, and a sync search's page, carry the moment the gateway stops waiting for them
 * (`answer_by`): past it, the gateway has answered its caller `internal_error` and the caller
 * retries, so billing must change nothing (here: charge no company profile read, no page), or
 * the caller pays for an answer it never got.
 */
describe('a billing request that arrives after its asker stopped waiting', () => {
  const tap = new TopicTap([Topics.QueryResponded.name]);
  const pages = new TopicTap([Topics.SearchPageCharged.name]);
  const kafka = new Kafka({ clientId: 'e2e-late-query', brokers: stack.kafkaBrokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer();

  beforeAll(async () => {
    await tap.start();
    await pages.start();
    await producer.connect();
  });
  afterAll(async () => {
    await producer.disconnect();
    await pages.stop();
    await tap.stop();
  });

  const ask = async (accountId: string, answerBy: Date) => {
    const queryId = `req_late${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
    const value: BillingQueryRequested.Value = {
      v: 1,
      query_id: queryId,
      account_id: accountId,
      mode: 'live',
      query: { kind: 'company.charge', domain: 'acme.example', operation: 'GET /v1/companies/acme.example' },
      answer_by: answerBy.toISOString(),
    };
    await producer.send({
      topic: Topics.BillingQueryRequested.name,
      messages: [{ key: accountId, value: JSON.stringify(value) }],
    });
    return (await tap.waitFor((m) => m.value['query_id'] === queryId, 30_000)).value;
  };
  const credits = async (key: string) =>
    ((await api('/v1/account', { key })).body as { credits_remaining: number }).credits_remaining;

  it('charges nothing and answers internal_error; the same query in time is charged', async () => {
    const { account_id: accountId, live_key: key } = await createAccount({ plan: 'pro', credits: 5 });

    const late = await ask(accountId, new Date(Date.now() - 1_000));
    expect(late).toMatchObject({ outcome: 'error', error: { code: 'internal_error' } });
    expect(await credits(key)).toBe(5);
    expect((await api('/v1/billing/ledger', { key })).body).toMatchObject({ data: [] });

    const inTime = await ask(accountId, new Date(Date.now() + 30_000));
    expect(inTime).toMatchObject({ outcome: 'ok', result: { kind: 'company.charge', credits_charged: 1 } });
    expect(await credits(key)).toBe(4);
  });

  it('charges no search page past its answer_by and answers expired; the same page in time is charged', async () => {
    const { account_id: accountId, live_key: key } = await createAccount({ plan: 'pro', credits: 5 });
    const page = async (answerBy: Date) => {
      const searchId = `req_latepage${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
      const value: BillingPageChargeRequested.Value = {
        ...examples.billingPageChargeRequested(),
        search_id: searchId,
        request_id: searchId,
        account_id: accountId,
        job_ids: ['job_latepage1', 'job_latepage2'],
        continuation: null,
        answer_by: answerBy.toISOString(),
      };
      await producer.send({
        topic: Topics.BillingPageChargeRequested.name,
        messages: [{ key: accountId, value: JSON.stringify(value) }],
      });
      return (await pages.waitFor((m) => m.value['search_id'] === searchId, 30_000)).value;
    };

    expect(await page(new Date(Date.now() - 1_000))).toMatchObject({
      outcome: 'expired',
      credits_charged: 0,
      credits_remaining: 5,
    });
    expect(await credits(key)).toBe(5);
    expect((await api('/v1/billing/ledger', { key })).body).toMatchObject({ data: [] });

    expect(await page(new Date(Date.now() + 30_000))).toMatchObject({ outcome: 'ok', credits_charged: 2 });
    expect(await credits(key)).toBe(3);
  });
});
