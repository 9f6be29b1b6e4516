import { addWorldJob, createAccount, Receiver, stack } from '@jobs/e2e-support';
import { JobsClient, verifyWebhook, WebhookVerificationError, type FetchLike } from '../src/index.js';

/**
 * A customer's own webhook secrets, end to end with the client: the secret fetched through the
 * public API (`webhookEndpoints.secret`) verifies a real delivery of the dispatcher to a local
 * receiver with `verifyWebhook`, the endpoint lists what uses it, and a rotation keeps the old
 * secret valid beside the new one for its overlap, then only the new one.
 */

const realFetch: FetchLike = (url, init) => fetch(url, init as RequestInit);
const clientFor = (apiKey: string) => new JobsClient({ baseUrl: stack.baseUrl, apiKey, fetch: realFetch });

/** The `v1=` values of a Service-Signature header. */
const signaturesOf = (header: string | string[] | undefined) =>
  String(header)
    .split(',')
    .filter((part) => part.startsWith('v1='));

describe('webhook endpoints through the client', () => {
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it(
    'verifies a real delivery with the secret fetched through the ' +
      'public API, lists its user, and rotates with an overlap',
    async () => {
      const { live_key } = await createAccount({ plan: 'pro', credits: 50 });
      const client = clientFor(live_key);
      const url = receiver.endpoint();

      // the secret first, then the delivery it signs
      const fetched = await client.webhookEndpoints.secret(url);
      expect(fetched.secret).toMatch(/^whsec_/);
      expect(fetched.url).toBe(url);
      expect((await client.webhookEndpoints.secret(url)).secret).toBe(fetched.secret); // stable until rotated

      const job = await addWorldJob({ providers: ['provider_a'] });
      const created = await client.searches.create({
        filters: { title_or: [job.keyword] },
        limit: 5,
        webhook_url: url,
      });
      const [arrival] = await receiver.waitFor(url, 1, 120_000);
      const event = verifyWebhook({
        payload: arrival!.raw,
        signature: arrival!.headers['service-signature'],
        secret: fetched.secret,
      });
      expect(event.type).toBe('search.completed');
      if (event.type !== 'search.completed') throw new Error('unreachable');
      expect(event.data.search.id).toBe(created.id);
      expect(() =>
        verifyWebhook({
          payload: arrival!.raw,
          signature: arrival!.headers['service-signature'],
          secret: `${fetched.secret}x`,
        }),
      ).toThrow(WebhookVerificationError);

      // the endpoint is listed with a hint of its secret and the async search that uses it
      const listed = (await collectAll(client.webhookEndpoints.iterate())).find((endpoint) => endpoint.url === url);
      expect(listed).toMatchObject({
        secret_hint: `whsec_…${fetched.secret.slice(-4)}`,
        secret_created_at: fetched.created_at,
        previous_secret_expires_at: null,
        used_by: { watches: 0, watch_ids: [], async_searches: 1, async_search_ids: [created.id] },
      });
      expect(JSON.stringify(listed)).not.toContain(fetched.secret);

      // rotate with an hour of overlap: a replay carries both signatures, the new one first, and either secret verifies
      // it
      const rotated = await client.webhookEndpoints.rotate(url, { previousExpiresInSeconds: 3600 });
      expect(rotated.secret).not.toBe(fetched.secret);
      expect(Date.parse(rotated.previous_expires_at!) - Date.parse(rotated.created_at)).toBe(3_600_000);
      expect((await client.webhookEndpoints.secret(url)).secret).toBe(rotated.secret);
      await client.webhooks.replay(event.id);
      const during = (await receiver.waitFor(url, 2, 60_000))[1]!;
      expect(signaturesOf(during.headers['service-signature'])).toHaveLength(2);
      expect(
        verifyWebhook({ payload: during.raw, signature: during.headers['service-signature'], secret: rotated.secret })
          .id,
      ).toBe(event.id);
      expect(
        verifyWebhook({ payload: during.raw, signature: during.headers['service-signature'], secret: fetched.secret })
          .id,
      ).toBe(event.id);
      const overlapping = (await collectAll(client.webhookEndpoints.iterate())).find(
        (endpoint) => endpoint.url === url,
      );
      expect(overlapping).toMatchObject({
        secret_hint: `whsec_…${rotated.secret.slice(-4)}`,
        previous_secret_expires_at: rotated.previous_expires_at,
      });

      // rotate again with no overlap: only the newest secret signs
      const final = await client.webhookEndpoints.rotate(url, { previousExpiresInSeconds: 0 });
      expect(final.previous_expires_at).toBeNull();
      await client.webhooks.replay(event.id);
      const after = (await receiver.waitFor(url, 3, 60_000))[2]!;
      expect(signaturesOf(after.headers['service-signature'])).toHaveLength(1);
      expect(
        verifyWebhook({ payload: after.raw, signature: after.headers['service-signature'], secret: final.secret }).id,
      ).toBe(event.id);
      for (const old of [fetched.secret, rotated.secret]) {
        expect(() =>
          verifyWebhook({ payload: after.raw, signature: after.headers['service-signature'], secret: old }),
        ).toThrow(WebhookVerificationError);
      }
    },
  );

  it('reads the secret a first delivery made: the API and the dispatcher agree on it', async () => {
    const { live_key } = await createAccount({ plan: 'pro', credits: 50 });
    const client = clientFor(live_key);
    const url = receiver.endpoint();
    const job = await addWorldJob({ providers: ['provider_c'] });
    await client.searches.create({ filters: { title_or: [job.keyword] }, limit: 5, webhook_url: url });
    const [arrival] = await receiver.waitFor(url, 1, 120_000);
    // asked after the delivery made it
    const { secret } = await client.webhookEndpoints.secret(url);
    expect(
      verifyWebhook({ payload: arrival!.raw, signature: arrival!.headers['service-signature'], secret }).type,
    ).toBe('search.completed');
  });
});

async function collectAll<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
