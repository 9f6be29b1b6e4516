import { Kafka, logLevel } from 'kafkajs';
import { examples, JobSearchResponseSchema, Topics } from '@jobs/contracts';
import { api, createAccount, stack, TopicTap } from '@jobs/e2e-support';

/**
 * A message that can never be processed (here: a charge for an account that does not exist)
 * goes to the dead-letter topic; it must not block its partition for everyone behind it.
 */
describe('a poison message in every billing partition', () => {
  const tap = new TopicTap([Topics.DeadLetter.name]);
  const ghost = `acc_ghost${Date.now()}`;

  beforeAll(() => tap.start());
  afterAll(() => tap.stop());

  it('is dead-lettered, and charges behind it still go through', async () => {
    const kafka = new Kafka({ clientId: 'e2e-poison', brokers: stack.kafkaBrokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const messages = Array.from({ length: Topics.BillingPageChargeRequested.partitions }, (_, partition) => {
      const value = {
        ...examples.billingPageChargeRequested(),
        account_id: ghost,
        search_id: `req_poison${partition}x${Date.now()}`,
        request_id: `req_poison${partition}x${Date.now()}`,
      };
      return { partition, key: ghost, value: JSON.stringify(value) };
    });
    await producer.send({ topic: Topics.BillingPageChargeRequested.name, messages });
    await producer.disconnect();

    const letters = await Promise.all(
      messages.map((_, partition) =>
        tap.waitFor(
          (m) =>
            m.value['topic'] === Topics.BillingPageChargeRequested.name &&
            m.value['partition'] === partition &&
            String(m.value['value']).includes(ghost),
          30000,
        ),
      ),
    );
    expect(letters).toHaveLength(Topics.BillingPageChargeRequested.partitions);
    expect(
      letters.every(
        (l) => l.value['consumer_group'] === 'billing' && String(l.value['error']).includes('unknown account'),
      ),
    ).toBe(true);

    const key = (await createAccount({ plan: 'pro', credits: 100 })).live_key;
    const res = await api('/v1/jobs/search', {
      key,
      body: { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'own_only' }, limit: 3 },
    });
    expect(res.status).toBe(200);
    expect(JobSearchResponseSchema.parse(res.body).metadata.credits_charged).toBe(3);
  });
});
