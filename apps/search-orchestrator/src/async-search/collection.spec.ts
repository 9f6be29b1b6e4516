import { providerProfile } from '@jobs/contracts';
import { examples, type Job } from '@jobs/contracts';
import {
  afterFailedChunk,
  chunkRetryDelayMs,
  completionEventId,
  coverageCounts,
  finalStatus,
  legAfterChunk,
  matchingJobs,
  MAX_CHUNK_ATTEMPTS,
  newCandidates,
  nextStep,
  searchMetadata,
  type LegView,
  type Progress,
} from './collection.js';

const AS_OF = Date.parse('2026-11-22T12:00:00Z');
const job = (id: string, patch: Partial<Job> = {}): Job => ({ ...examples.job(), id, ...patch });
const leg = (provider: LegView['provider'], patch: Partial<LegView> = {}): LegView => ({
  provider,
  wave: 0,
  state: 'fetching',
  failure: null,
  matched: 0,
  duplicatesMerged: 0,
  ...patch,
});
const progress = (patch: Partial<Progress> = {}): Progress => ({
  status: 'running',
  limit: 10,
  jobsFound: 0,
  capReached: false,
  pending: 0,
  held: 0,
  wave: 0,
  waves: 1,
  legs: [leg('own_index')],
  ...patch,
});
const context = { filters: {}, strategy: 'max_coverage' as const, minSources: 2, asOf: AS_OF };

describe('matchingJobs and newCandidates', () => {
  it('keeps each job once, checks every filter again and drops closed jobs unless asked', () => {
    const jobs = [
      job('job_a'),
      job('job_b', { title: 'Baker' }),
      job('job_a'),
      job('job_c', { status: 'closed', closed_reason: 'filled' }),
    ];
    const title = examples.job().title.split(' ')[0]!;
    expect(matchingJobs(jobs, { ...context, filters: { title_or: [title] } }).map((j) => j.id)).toEqual(['job_a']);
    expect(matchingJobs(jobs, context).map((j) => j.id)).toEqual(['job_a', 'job_b']);
    expect(matchingJobs(jobs, { ...context, filters: { include_closed: true } }).map((j) => j.id)).toEqual([
      'job_a',
      'job_b',
      'job_c',
    ]);
  });

  it('consensus keeps jobs seen by min_sources providers, as the chunk shows them', () => {
    const one = job('job_one', { sources: [examples.job().sources[0]!] });
    const two = job('job_two');
    expect(examples.job().sources.length).toBeGreaterThanOrEqual(2);
    expect(matchingJobs([one, two], { ...context, strategy: 'consensus' }).map((j) => j.id)).toEqual(['job_two']);
    expect(matchingJobs([one, two], context)).toHaveLength(2);
  });

  it('adds only jobs the search does not hold yet, in order, at most the room left', () => {
    const matching = ['job_a', 'job_b', 'job_c', 'job_d'].map((id) => job(id));
    expect(newCandidates(matching, new Set(['job_b']), 10).map((j) => j.id)).toEqual(['job_a', 'job_c', 'job_d']);
    expect(newCandidates(matching, new Set(['job_b']), 2).map((j) => j.id)).toEqual(['job_a', 'job_c']);
    expect(newCandidates(matching, new Set(), 0)).toEqual([]);
    expect(newCandidates(matching, new Set(), -3)).toEqual([]);
  });
});

describe('chunk tries and legs', () => {
  it('tries a failed chunk again until its tries are used, then gives the provider up', () => {
    const outcomes = Array.from({ length: MAX_CHUNK_ATTEMPTS }, (_, attempt) => afterFailedChunk(attempt));
    expect(outcomes).toEqual([...Array(MAX_CHUNK_ATTEMPTS - 1).fill('retry'), 'give_up']);
  });

  it("asks a failed chunk again only after its provider's circuit breaker let calls through again", () => {
    const cooldown = providerProfile('provider_b').calls.breakerCooldownMs;
    expect(chunkRetryDelayMs('provider_b')).toBeGreaterThan(cooldown);
  });

  it(
    'moves a leg after an ok chunk: exhausted at its end, stopped ' +
      'when done, paused on hold or without room, else on',
    () => {
      const next = { kind: 'pages' as const, page: { cursor: 2, page_size: 100 } };
      expect(legAfterChunk({ next: null, onHold: false, roomLeft: 5, done: false })).toBe('exhausted');
      expect(legAfterChunk({ next, onHold: false, roomLeft: 0, done: true })).toBe('stopped');
      expect(legAfterChunk({ next, onHold: true, roomLeft: 5, done: false })).toBe('paused');
      expect(legAfterChunk({ next, onHold: false, roomLeft: 0, done: false })).toBe('paused');
      expect(legAfterChunk({ next, onHold: false, roomLeft: 1, done: false })).toBe('fetching');
    },
  );
});

describe('nextStep (the async search state machine)', () => {
  it('waits while chunks are in flight or billing has not answered', () => {
    expect(nextStep(progress())).toEqual({ kind: 'wait' });
    expect(nextStep(progress({ pending: 3, legs: [leg('own_index', { state: 'exhausted' })] }))).toEqual({
      kind: 'wait',
    });
  });

  it('finishes at limit or cap, but only once billing answered every batch in flight', () => {
    expect(nextStep(progress({ jobsFound: 10 }))).toEqual({ kind: 'finish', status: 'completed' });
    expect(nextStep(progress({ jobsFound: 4, capReached: true }))).toEqual({ kind: 'finish', status: 'completed' });
    expect(nextStep(progress({ jobsFound: 4, capReached: true, pending: 2 }))).toEqual({ kind: 'wait' });
  });

  it('finishes when the last wave is exhausted; cheapest_first asks the partners only while short of limit', () => {
    const ownDone = [leg('own_index', { state: 'exhausted' })];
    expect(nextStep(progress({ legs: ownDone, jobsFound: 3, waves: 2 }))).toEqual({ kind: 'next_wave' });
    expect(nextStep(progress({ legs: ownDone, jobsFound: 10, waves: 2 }))).toEqual({
      kind: 'finish',
      status: 'completed',
    });
    expect(nextStep(progress({ legs: ownDone, jobsFound: 3, waves: 2, wave: 1 }))).toEqual({
      kind: 'finish',
      status: 'completed',
    });
  });

  it('asks paused legs again once room came back, never on hold', () => {
    const legs = [leg('provider_a', { state: 'paused' }), leg('provider_b', { state: 'exhausted' })];
    expect(nextStep(progress({ legs, jobsFound: 6 }))).toEqual({ kind: 'drive', providers: ['provider_a'] });
    expect(nextStep(progress({ legs, jobsFound: 6, pending: 4 }))).toEqual({ kind: 'wait' });
    expect(nextStep(progress({ legs, jobsFound: 6, status: 'on_hold' }))).toEqual({ kind: 'wait' });
    expect(nextStep(progress({ legs, jobsFound: 6, held: 4, status: 'on_hold' }))).toEqual({ kind: 'wait' });
  });

  it('finishes a search on hold that reached max_credits meanwhile, once billing answered the rest', () => {
    const legs = [leg('provider_a', { state: 'paused' }), leg('provider_b', { state: 'exhausted' })];
    const capped = { legs, jobsFound: 6, held: 4, capReached: true, status: 'on_hold' as const };
    expect(nextStep(progress({ ...capped, pending: 2 }))).toEqual({ kind: 'wait' });
    expect(nextStep(progress(capped))).toEqual({ kind: 'finish', status: 'completed' });
  });

  it('does nothing more once final', () => {
    for (const status of ['completed', 'partial', 'failed'] as const)
      expect(nextStep(progress({ status, jobsFound: 10 }))).toEqual({ kind: 'wait' });
  });

  it('ends partial when a provider failed, failed when every provider failed and nothing was collected', () => {
    const failedA = leg('provider_a', { state: 'failed', failure: 'provider_error' });
    expect(finalStatus([failedA, leg('provider_b', { state: 'exhausted' })], 5)).toBe('partial');
    expect(finalStatus([failedA, leg('provider_b', { state: 'failed', failure: 'provider_timeout' })], 0)).toBe(
      'failed',
    );
    expect(finalStatus([failedA], 2)).toBe('partial');
    expect(finalStatus([leg('own_index', { state: 'exhausted' })], 0)).toBe('completed');
    expect(nextStep(progress({ legs: [failedA, leg('own_index', { state: 'exhausted' })], jobsFound: 1 }))).toEqual({
      kind: 'finish',
      status: 'partial',
    });
  });
});

describe('metadata', () => {
  it('sums field coverage over every collected job and reports providers like a sync search', () => {
    const counts = coverageCounts([job('job_a'), job('job_b', { salary: null })]);
    const coverage = coverageCounts([job('job_c', { salary: null, seniority: null })], counts);
    const metadata = searchMetadata({
      requestId: 'req_1',
      legs: [
        leg('own_index', { state: 'exhausted', matched: 2, duplicatesMerged: 1 }),
        leg('provider_a', { state: 'exhausted', matched: 0 }),
        leg('provider_b', { state: 'failed', failure: 'provider_timeout' }),
      ],
      contributions: { own_index: 3 },
      coverage,
      jobsFound: 3,
      creditsCharged: 2,
      jobsAlreadyPaid: 1,
      creditsRemaining: 7,
      latencyMs: 1234.4,
    });
    expect(metadata.field_coverage['salary']).toBe(0.333);
    expect(metadata.field_coverage['seniority']).toBe(0.667);
    expect(metadata).toMatchObject({
      status: 'partial',
      credits_charged: 2,
      jobs_already_paid: 1,
      duplicates_merged: 1,
      credits_remaining: 7,
      latency_ms: 1234,
      providers: {
        tried: ['own_index', 'provider_a', 'provider_b'],
        hit: ['own_index'],
        failed: [{ provider: 'provider_b', code: 'provider_timeout' }],
        contributions: { own_index: 3, provider_a: 0 },
      },
    });
  });

  it('counts the jobs a provider contributed before it failed: contributions add up to jobs_found', () => {
    const metadata = searchMetadata({
      requestId: 'req_1',
      legs: [
        leg('own_index', { state: 'exhausted', matched: 2 }),
        leg('provider_b', { state: 'failed', failure: 'provider_error', matched: 3 }),
      ],
      contributions: { own_index: 2, provider_b: 3 },
      coverage: {},
      jobsFound: 5,
      creditsCharged: 5,
      jobsAlreadyPaid: 0,
      creditsRemaining: 5,
      latencyMs: 10,
    });
    expect(metadata.providers.contributions).toEqual({ own_index: 2, provider_b: 3 });
    expect(metadata.providers.failed).toEqual([{ provider: 'provider_b', code: 'provider_error' }]);
  });

  it('derives the completion event id from the search id', () => {
    expect(completionEventId('srch_abc')).toBe('evt_srch_abc');
  });
});
