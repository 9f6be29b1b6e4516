// Job lifecycle and company profiles over the running stack: refreshes are published to Kafka
// as the refresh planner publishes them (refresh.fetch.requested), world changes go through
// the admin API, and the outcome is watched on job.lifecycle.changed / company.hiring.changed
// and read over HTTP.
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import {
  CompanyProfileSchema,
  ErrorEnvelopeSchema,
  JobSchema,
  RefreshFetchRequested,
  type ProviderSlug,
} from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  resetProviders,
  setProvider,
  stack,
  TopicTap,
  waitForStackReady,
  wholeLedger,
  type SeenMessage,
} from '@jobs/e2e-support';
import { SANDBOX_JOBS } from '@jobs/sandbox';

let producer: Producer;
let tap: TopicTap;
let live: string;
let test: string;

beforeAll(async () => {
  await waitForStackReady();
  producer = new Kafka({ clientId: 'e2e-refresh', brokers: stack.kafkaBrokers, logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  tap = new TopicTap(['job.lifecycle.changed', 'company.hiring.changed', 'refresh.records.fetched']);
  await tap.start();
  ({ live_key: live, test_key: test } = await createAccount({ plan: 'pro', credits: 100 }));
}, 180_000);

afterAll(async () => {
  await resetProviders().catch(() => undefined);
  await producer?.disconnect();
  await tap?.stop();
});

/**
 * Publishes one `companies` sweep per provider of one company, as the planner does for a batch of companies; returns
 * the refresh id.
 */
async function refresh(domain: string, providers: ProviderSlug[]): Promise<string> {
  const refreshId = `rfr_e2e_${randomBytes(6).toString('hex')}`;
  const messages = providers.map((provider) => {
    const value = RefreshFetchRequested.ValueSchema.parse({
      v: 1,
      refresh_id: refreshId,
      kind: 'companies',
      scope: { key: `companies:e2e:${domain}`, filters: { company_domain_or: [domain] } },
      provider,
      timeout_ms: 15_000,
    });
    return { key: RefreshFetchRequested.keyOf(value), value: JSON.stringify(value) };
  });
  await producer.send({ topic: 'refresh.fetch.requested', messages });
  return refreshId;
}

const change = (jobId: string, kind: string) => (m: SeenMessage) =>
  m.topic === 'job.lifecycle.changed' && m.key === jobId && m.value['change'] === kind;
const changesOf = (jobId: string) =>
  tap.seen.filter((m) => m.topic === 'job.lifecycle.changed' && m.key === jobId).map((m) => m.value);
const getJob = async (id: string) => JobSchema.parse((await api(`/v1/jobs/${id}`, { key: live })).body);

/** Refreshes until `predicate` is seen (a refresh may run before the provider shows the change). */
async function refreshUntil(
  domain: string,
  providers: ProviderSlug[],
  predicate: (m: SeenMessage) => boolean,
  attempts = 10,
): Promise<SeenMessage> {
  for (let i = 0; i < attempts; i++) {
    await refresh(domain, providers);
    try {
      return await tap.waitFor(predicate, 10_000);
    } catch {
      // not yet: refresh again
    }
  }
  throw new Error('change not seen after several refreshes');
}

/** The job of a new opening, once every one of `providers` has merged its listing of it. */
async function openedJob(title: string, domain: string, providers: ProviderSlug[]): Promise<string> {
  const opened = await refreshUntil(
    domain,
    providers,
    (m) =>
      m.topic === 'job.lifecycle.changed' &&
      m.value['change'] === 'opened' &&
      (m.value['job'] as { title: string }).title === title,
  );
  const jobId = String(opened.key);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const seenBy = new Set((await getJob(jobId)).sources.map((s) => s.provider));
    if (providers.every((p) => seenBy.has(p))) return jobId;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${jobId} not merged from every provider in time`);
}

describe('job lifecycle from refreshes', () => {
  it(
    'opens, updates, closes with the crawler reason and re-lists ' +
      'a job, each change published once, same id throughout',
    async () => {
      const domain = await addWorldCompany();
      const world = await addWorldJob({ providers: ['own_index', 'provider_a'], company_domain: domain });
      const providers: ProviderSlug[] = ['own_index', 'provider_a'];
      const jobId = await openedJob(world.title, domain, providers);
      expect(await getJob(jobId)).toMatchObject({ status: 'open', closed_reason: null, repost_count: 0 });

      await admin('PATCH', `/world/jobs/${world.worldJobId}`, {
        seniority: 'senior',
        salary: { min: 90000, max: 99000, currency: 'GBP', period: 'year' },
      });
      const updated = await refreshUntil(domain, providers, change(jobId, 'updated'));
      expect(updated.value['changed_fields']).toEqual(expect.arrayContaining(['seniority', 'salary']));
      expect((await getJob(jobId)).seniority).toBe('senior');

      await admin('POST', `/world/jobs/${world.worldJobId}/close`, { reason: 'filled' });
      const closed = await refreshUntil(domain, providers, change(jobId, 'closed'));
      expect(closed.value['job']).toMatchObject({ id: jobId, status: 'closed', closed_reason: 'filled' });
      expect(await getJob(jobId)).toMatchObject({ status: 'closed', closed_reason: 'filled' });

      await admin('POST', `/world/jobs/${world.worldJobId}/repost`);
      const reposted = await refreshUntil(domain, providers, change(jobId, 'reposted'));
      expect(reposted.value['job']).toMatchObject({ id: jobId, status: 'open', repost_count: 1 });
      expect(await getJob(jobId)).toMatchObject({ id: jobId, status: 'open', closed_reason: null, repost_count: 1 });

      // every change once: one message per change id, and each kind exactly once
      await refresh(domain, providers);
      const changes = changesOf(jobId);
      expect(new Set(changes.map((c) => c['change_id'])).size).toBe(changes.length);
      for (const kind of ['opened', 'closed', 'reposted'])
        expect(changes.filter((c) => c['change'] === kind)).toHaveLength(1);
    },
  );

  it(
    'a provider that fails during a refresh closes nothing; the ' + 'next good refresh closes the job (reason unknown)',
    async () => {
      const domain = await addWorldCompany();
      const world = await addWorldJob({ providers: ['provider_b'], company_domain: domain });
      const jobId = await openedJob(world.title, domain, ['provider_b']);

      await setProvider('provider_b', { fail: 'error' });
      await admin('POST', `/world/jobs/${world.worldJobId}/close`, { reason: 'expired' });
      const failedRefresh = await refresh(domain, ['provider_b']);
      await tap.waitFor(
        (m) =>
          m.topic === 'refresh.records.fetched' &&
          m.value['refresh_id'] === failedRefresh &&
          m.value['outcome'] === 'provider_error',
        60_000,
      );
      // a marker behind the failed listing in the scope's partition: once its job opened, dedupe has processed the
      // failure
      const marker = await addWorldJob({ providers: ['provider_c'], company_domain: domain });
      await openedJob(marker.title, domain, ['provider_c']);
      expect(await getJob(jobId)).toMatchObject({ status: 'open', closed_reason: null });
      expect(changesOf(jobId).map((c) => c['change'])).toEqual(['opened']);

      await resetProviders();
      const closed = await refreshUntil(domain, ['provider_b'], change(jobId, 'closed'));
      expect(closed.value['job']).toMatchObject({ status: 'closed', closed_reason: 'unknown' });
    },
  );
});

describe('GET /v1/companies/{domain}', () => {
  it(
    'profiles a hiring company for 1 credit every request; ' +
      'is_hiring false only after its jobs all closed in complete ' +
      'refreshes',
    async () => {
      const domain = await addWorldCompany();
      const world = await addWorldJob({ providers: ['own_index', 'provider_a'], company_domain: domain });
      const jobId = await openedJob(world.title, domain, ['own_index', 'provider_a']);

      const first = await api(`/v1/companies/${domain}`, { key: live });
      expect(first.status).toBe(200);
      const profile = CompanyProfileSchema.parse(first.body);
      expect(profile).toMatchObject({ company: { domain }, open_jobs_count: 1, is_hiring: { value: true } });
      expect(profile.sources.map((s) => s.provider)).toEqual(['own_index', 'provider_a']);
      expect(first.headers.get('x-credits-charged')).toBe('1');
      const second = await api(`/v1/companies/${domain}`, { key: live });
      expect(second.headers.get('x-credits-charged')).toBe('1');
      expect(Number(second.headers.get('x-credits-remaining'))).toBe(
        Number(first.headers.get('x-credits-remaining')) - 1,
      );
      const lines = (await wholeLedger(live)).filter((l) => l.operation === `GET /v1/companies/${domain}`);
      expect(lines).toHaveLength(2);
      expect(lines.every((l) => l.job_id === null && l.credits === 1 && l.reason === 'charged')).toBe(true);
      // the store keeps domains without www.: a caller's www. names the same company
      const viaWww = await api(`/v1/companies/WWW.${domain}`, { key: live });
      expect(CompanyProfileSchema.parse(viaWww.body).company.domain).toBe(domain);

      const hiring = await tap.waitFor(
        (m) =>
          m.topic === 'company.hiring.changed' &&
          m.key === domain &&
          (m.value['is_hiring'] as { value: unknown }).value === true,
      );
      expect(hiring.value['previous']).toBeNull();

      await admin('POST', `/world/jobs/${world.worldJobId}/close`, { reason: 'filled' });
      await refreshUntil(domain, ['own_index', 'provider_a'], change(jobId, 'closed'));
      const stopped = await tap.waitFor(
        (m) =>
          m.topic === 'company.hiring.changed' &&
          m.key === domain &&
          (m.value['is_hiring'] as { value: unknown }).value === false,
      );
      expect(stopped.value['previous']).toBe(true);
      const after = CompanyProfileSchema.parse((await api(`/v1/companies/${domain}`, { key: live })).body);
      expect(after).toMatchObject({ open_jobs_count: 0, is_hiring: { value: false } });
    },
  );

  it(
    'answers 404 for an unknown domain without charging, 402 ' + 'without credits, 400 for a malformed domain',
    async () => {
      const before = Number((await api('/v1/account', { key: live })).body!['credits_remaining']);
      const unknown = await api(`/v1/companies/nobody-${randomBytes(4).toString('hex')}.example`, { key: live });
      expect(unknown.status).toBe(404);
      expect(ErrorEnvelopeSchema.parse(unknown.body).error.code).toBe('not_found');
      expect(Number((await api('/v1/account', { key: live })).body!['credits_remaining'])).toBe(before);

      const domain = await addWorldCompany();
      const world = await addWorldJob({ providers: ['own_index'], company_domain: domain });
      await openedJob(world.title, domain, ['own_index']);
      const broke = await createAccount({ plan: 'pro', credits: 0 });
      const refused = await api(`/v1/companies/${domain}`, { key: broke.live_key });
      expect(refused.status).toBe(402);
      expect(ErrorEnvelopeSchema.parse(refused.body).error).toMatchObject({
        code: 'insufficient_credits',
        credits_needed: 1,
      });

      expect((await api('/v1/companies/not a domain', { key: live })).status).toBe(400);
    },
  );

  it('test keys read sandbox company profiles, never charged', async () => {
    const domain = SANDBOX_JOBS.find((j) => j.company.domain)!.company.domain!;
    const res = await api(`/v1/companies/${domain}`, { key: test });
    expect(res.status).toBe(200);
    expect(CompanyProfileSchema.parse(res.body).company.domain).toBe(domain);
    expect(res.headers.get('x-credits-charged')).toBe('0');
  });
});
