import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { JobSearchResponseSchema } from '@jobs/contracts';
import { JobSummaryPageSchema } from '../src/mcp/job-summary.js';
import { admissionTotals, expectWellFormedRefusals, search } from './admission-load.js';
import { createAccount, resetProviders, setProvider, stack } from './stack.js';

/**
 * Admission waits before it refuses, and shares the pipeline among the accounts waiting
 * (docs/admission.md). These count outcomes, never timings: a search beyond the gateway's
 * in-flight limit waits for a slot instead of being refused, and one account's burst does not
 * get another account's searches refused.
 */
describe('fair admission of sync searches', () => {
  it('lets searches beyond the in-flight limit wait for a slot instead of refusing them', async () => {
    const account = await createAccount({ plan: 'pro', credits: 100_000 });
    const before = await admissionTotals();
    // Twice SEARCH_MAX_IN_FLIGHT at once, each with the default deadline: every one fits its wait.
    const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => search(account.live_key, i)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    for (const answer of answers) JobSearchResponseSchema.parse(answer.body);
    const after = await admissionTotals();
    expect(after.admitted - before.admitted).toBe(32);
    // At most SEARCH_MAX_IN_FLIGHT (16) started at once: the others waited.
    expect(after.waited - before.waited).toBeGreaterThanOrEqual(16);
  });

  it(
    "refuses a busy account's searches that cannot wait, and " + 'admits every search of a quiet account beside it',
    async () => {
      const busy = await createAccount({ plan: 'pro', credits: 100_000 });
      const quiet = await createAccount({ plan: 'starter', credits: 10_000 });
      // The busy account asks for a 1 s deadline: a search of it that cannot start within what
      // that leaves is refused. The quiet account's searches come one at a time during the burst.
      const burst = Promise.all(
        Array.from({ length: 64 }, (_, i) => search(busy.live_key, i, { strategy: 'max_coverage', timeout_ms: 1000 })),
      );
      const quietAnswers = [];
      for (let i = 0; i < 6; i++) quietAnswers.push(await search(quiet.live_key, i));
      const busyAnswers = await burst;

      expect(quietAnswers.map((answer) => answer.status)).toEqual(quietAnswers.map(() => 200));
      expect(expectWellFormedRefusals(busyAnswers).length).toBeGreaterThan(0);
    },
  );

  it(
    'keeps admitting a quiet account beside a busy one while a ' + 'partner stops answering, and never answers 500',
    async () => {
      const busy = await createAccount({ plan: 'pro', credits: 100_000 });
      const quiet = await createAccount({ plan: 'pro', credits: 10_000 });
      // provider_b holds every answer back for a minute: each max_coverage search waits out its own 2 s deadline on it
      // (until the breaker opens), so latency jumps for a reason that is no load of ours.
      await setProvider('provider_b', { fail: 'timeout' });
      try {
        const waterfall = { strategy: 'max_coverage', timeout_ms: 2000 };
        const burst = Promise.all(Array.from({ length: 48 }, (_, i) => search(busy.live_key, i, waterfall)));
        const quietAnswers = [];
        for (let i = 0; i < 6; i++) quietAnswers.push(await search(quiet.live_key, i, waterfall));
        const busyAnswers = await burst;

        expect(quietAnswers.map((answer) => answer.status)).toEqual(quietAnswers.map(() => 200));
        for (const answer of quietAnswers) {
          const metadata = JobSearchResponseSchema.parse(answer.body).metadata;
          // provider_b never answered in time (or its breaker kept it out): the answer has what the others found
          expect(metadata.providers.tried).toContain('provider_a');
          expect(metadata.providers.hit).not.toContain('provider_b');
          if (metadata.providers.tried.includes('provider_b'))
            expect(metadata.providers.failed.map((failure) => failure.provider)).toContain('provider_b');
        }
        expectWellFormedRefusals(busyAnswers);
        expect(busyAnswers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
      } finally {
        await resetProviders();
      }
    },
  );

  it(
    "admits an MCP tool's search through the same queue: a quiet " + 'agent is answered beside a busy REST account',
    async () => {
      const busy = await createAccount({ plan: 'pro', credits: 100_000 });
      const agent = await createAccount({ plan: 'pro', credits: 10_000 });
      const client = new Client({ name: 'fair-admission-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${agent.live_key}` } },
        }),
      );
      try {
        const before = await admissionTotals();
        const burst = Promise.all(
          Array.from({ length: 64 }, (_, i) =>
            search(busy.live_key, i, { strategy: 'max_coverage', timeout_ms: 1000 }),
          ),
        );
        const answers: CallToolResult[] = [];
        for (let i = 0; i < 4; i++) {
          answers.push(
            (await client.callTool({
              name: 'search_jobs',
              arguments: { filters: { title_or: ['engineer'] }, max_credits: 5, limit: 5 },
            })) as CallToolResult,
          );
        }
        const busyAnswers = await burst;
        expect(answers.map((answer) => answer.isError ?? false)).toEqual([false, false, false, false]);
        for (const answer of answers) JobSummaryPageSchema.parse(answer.structuredContent);
        expectWellFormedRefusals(busyAnswers);
        // The agent's four searches were counted by admission beside the REST ones.
        const after = await admissionTotals();
        expect(after.admitted - before.admitted).toBe(4 + busyAnswers.filter((answer) => answer.status === 200).length);
      } finally {
        await client.close();
      }
    },
  );
});
