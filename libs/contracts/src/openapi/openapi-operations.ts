// Every operation of the public API as the OpenAPI document describes it (openapi-document.ts
// builds the document from this table and the zod schemas).
import type { z } from 'zod';
import { AsyncSearchParamsSchema, AsyncSearchReadQuerySchema } from '../public/async-search.schema.js';
import { CompanyDomainParamsSchema } from '../public/company.schema.js';
import type { ErrorCatalogEntry } from '../public/errors.schema.js';
import { EventListQuerySchema } from '../public/event.schema.js';
import { JobParamsSchema } from '../public/job.schema.js';
import { LedgerListQuerySchema } from '../public/ledger.schema.js';
import { WatchListQuerySchema, WatchParamsSchema } from '../public/watch.schema.js';
import { WebhookEndpointListQuerySchema } from '../public/webhook-endpoint.schema.js';

export type ErrorStatus = ErrorCatalogEntry['status'];

export interface OperationSpec {
  method: 'get' | 'post' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** false for the keyless sandbox */
  authenticated?: boolean;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: string;
  success: { status: number; description: string; schema?: string; billing?: boolean };
  errors: readonly ErrorStatus[];
}

const COST = (text: string) => `\n\nCost: ${text}.`;

export const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'post',
    path: '/jobs/search',
    operationId: 'searchJobs',
    tag: 'Search',
    body: 'JobSearchRequest',
    summary: "Search jobs across the own index and the plan's providers",
    description:
      'Synchronous search; one page of up to 100 canonical jobs, or ' +
      'a free estimate with `dry_run: true`. A provider failure or ' +
      'timeout gives 200 with `metadata.status: partial`. With a ' +
      'test key the answer comes from the sandbox data and is never ' +
      'charged.' +
      COST('1 credit per new unique job; dry_run free'),
    success: {
      status: 200,
      description: 'A page of jobs, or the dry-run estimate.',
      schema: 'JobSearchResult',
      billing: true,
    },
    errors: [400, 401, 402, 403, 409, 429, 500],
  },
  {
    method: 'get',
    path: '/jobs/{id}',
    operationId: 'getJob',
    tag: 'Jobs',
    pathParams: JobParamsSchema,
    summary: 'Get one canonical job',
    description: 'A full Job by its stable `job_` id.' + COST('1 credit, free if already paid'),
    success: { status: 200, description: 'The job.', schema: 'Job', billing: true },
    errors: [400, 401, 402, 404, 429, 500],
  },
  {
    method: 'post',
    path: '/searches',
    operationId: 'createSearch',
    tag: 'Async searches',
    body: 'AsyncSearchCreateRequest',
    summary: 'Start an async search of up to 10,000 jobs',
    description:
      'Accepted at once (`queued`); poll `GET /searches/{id}` or ' +
      'receive `search.completed` at `webhook_url`. Running out of ' +
      'credits later puts the search `on_hold`.' +
      COST('1 credit per unique job collected'),
    success: {
      status: 202,
      description: 'The async search, initially queued with empty data and null metadata.',
      schema: 'AsyncSearch',
    },
    errors: [400, 401, 403, 409, 429, 500],
  },
  {
    method: 'get',
    path: '/searches/{id}',
    operationId: 'getSearch',
    tag: 'Async searches',
    pathParams: AsyncSearchParamsSchema,
    query: AsyncSearchReadQuerySchema,
    summary: 'Read an async search and a page of its results',
    description: 'Branch on `status`, never on the HTTP code: a 200 can carry any status.' + COST('free'),
    success: { status: 200, description: 'The async search.', schema: 'AsyncSearch' },
    errors: [400, 401, 404, 429, 500],
  },
  {
    method: 'get',
    path: '/companies/{domain}',
    operationId: 'getCompany',
    tag: 'Companies',
    pathParams: CompanyDomainParamsSchema,
    summary: 'Company hiring profile',
    description:
      '`is_hiring` (null means unknown, never false) and `hiring_pulse` for a company domain without scheme or path.' +
      COST('1 credit per request'),
    success: { status: 200, description: 'The company profile.', schema: 'CompanyProfile', billing: true },
    errors: [400, 401, 402, 404, 429, 500],
  },
  {
    method: 'post',
    path: '/watches',
    operationId: 'createWatch',
    tag: 'Watches',
    body: 'WatchCreateRequest',
    summary: 'Watch a company or a saved filter',
    description:
      'Delivers signed webhook events; Pro plan and above (`403 plan_required` otherwise).' +
      COST('free; job.opened events cost 1 credit unless already paid'),
    success: { status: 201, description: 'The created watch.', schema: 'Watch' },
    errors: [400, 401, 403, 409, 429, 500],
  },
  {
    method: 'get',
    path: '/watches',
    operationId: 'listWatches',
    tag: 'Watches',
    query: WatchListQuerySchema,
    summary: 'List watches',
    description: 'Page size is set by the server.' + COST('free'),
    success: { status: 200, description: 'A page of watches.', schema: 'WatchListResponse' },
    errors: [400, 401, 429, 500],
  },
  {
    method: 'delete',
    path: '/watches/{id}',
    operationId: 'deleteWatch',
    tag: 'Watches',
    pathParams: WatchParamsSchema,
    summary: 'Delete a watch',
    description: "Stops the watch's deliveries." + COST('free'),
    success: { status: 204, description: 'Deleted; no body.' },
    errors: [400, 401, 404, 429, 500],
  },
  {
    method: 'get',
    path: '/events',
    operationId: 'listEvents',
    tag: 'Events',
    query: EventListQuerySchema,
    summary: 'The event feed, oldest first',
    description: 'Resume from the last stored `next_cursor` as `since` to recover missed events.' + COST('free'),
    success: { status: 200, description: 'A page of events.', schema: 'EventListResponse' },
    errors: [400, 401, 429, 500],
  },
  {
    method: 'post',
    path: '/webhooks/replay',
    operationId: 'replayWebhook',
    tag: 'Events',
    body: 'WebhookReplayRequest',
    summary: 'Re-send an event to its webhook endpoint',
    description: 'The event keeps its id; replays never charge.' + COST('free'),
    success: { status: 202, description: 'The replay is queued.', schema: 'WebhookReplayResponse' },
    errors: [400, 401, 404, 409, 429, 500],
  },
  {
    method: 'get',
    path: '/webhook_endpoints',
    operationId: 'listWebhookEndpoints',
    tag: 'Webhook endpoints',
    query: WebhookEndpointListQuerySchema,
    summary: 'The URLs your watches and async searches deliver to',
    description:
      'Each endpoint with a hint of its signing secret (never the ' +
      'secret) and what uses it: counts of watches and async ' +
      'searches, and the 10 most recent ids of each. 100 a page, in ' +
      'a stable order (not alphabetical). A test key lists its test ' +
      'endpoints.' +
      COST('free'),
    success: { status: 200, description: 'A page of webhook endpoints.', schema: 'WebhookEndpointListResponse' },
    errors: [400, 401, 429, 500],
  },
  {
    method: 'post',
    path: '/webhook_endpoints/secret',
    operationId: 'getWebhookEndpointSecret',
    tag: 'Webhook endpoints',
    body: 'WebhookEndpointSecretRequest',
    summary: 'The signing secret of a webhook URL',
    description:
      'The secret that signs deliveries to `url` ' +
      '(`Service-Signature`), created if the URL has none yet, the ' +
      'same until rotated. Use the whole string, `whsec_` included, ' +
      'as the HMAC key. A test key gets the secret of its test ' +
      'deliveries.' +
      COST('free'),
    success: { status: 200, description: 'The secret.', schema: 'WebhookEndpointSecret' },
    errors: [400, 401, 409, 429, 500],
  },
  {
    method: 'post',
    path: '/webhook_endpoints/secret/rotate',
    operationId: 'rotateWebhookEndpointSecret',
    tag: 'Webhook endpoints',
    body: 'WebhookEndpointRotateRequest',
    summary: 'Replace the signing secret of a webhook URL',
    description:
      'A new secret from now on. Until `previous_expires_at` ' +
      '(`previous_expires_in_seconds`, default a day, at most a ' +
      'week; 0 ends it at once) each delivery carries two ' +
      'signatures, `t=...,v1=<new>,v1=<old>`, so your receiver can ' +
      'switch to the new secret whenever it is ready. Send an ' +
      '`Idempotency-Key`: a retry then answers the same new secret ' +
      'instead of rotating again.' +
      COST('free'),
    success: { status: 200, description: 'The new secret.', schema: 'WebhookEndpointRotated' },
    errors: [400, 401, 409, 429, 500],
  },
  {
    method: 'get',
    path: '/account',
    operationId: 'getAccount',
    tag: 'Account',
    summary: "The caller's account",
    description: 'Plan, credits, enabled providers and rate limit; usable as a key health check.' + COST('free'),
    success: { status: 200, description: 'The account.', schema: 'Account' },
    errors: [401, 429, 500],
  },
  {
    method: 'get',
    path: '/billing/ledger',
    operationId: 'listLedger',
    tag: 'Account',
    query: LedgerListQuerySchema,
    summary: 'The billing ledger, newest first',
    description: 'Every charge and every free re-read, with the request and operation that caused it.' + COST('free'),
    success: { status: 200, description: 'A page of ledger entries.', schema: 'LedgerListResponse' },
    errors: [400, 401, 429, 500],
  },
  {
    method: 'get',
    path: '/providers',
    operationId: 'listProviders',
    tag: 'Providers',
    summary: 'All seven sources and their status',
    description: '`enabled_on_your_plan` agrees with `providers_enabled` of `GET /account`.' + COST('free'),
    success: { status: 200, description: 'Every provider.', schema: 'ProviderListResponse' },
    errors: [401, 429, 500],
  },
  {
    method: 'post',
    path: '/sandbox/jobs/search',
    operationId: 'sandboxSearchJobs',
    tag: 'Sandbox',
    body: 'JobSearchRequest',
    authenticated: false,
    summary: 'Keyless sandbox search with fixed illustrative data',
    description:
      'Same request and response shapes as `POST /jobs/search`, ' +
      'answered from fixed data about fictional companies. No key, ' +
      'no provider call, never charged (`metadata.credits_charged` ' +
      '0). Rate limited per client address.' +
      COST('free, no key'),
    success: {
      status: 200,
      description: 'A page of sandbox jobs, or the dry-run estimate.',
      schema: 'JobSearchResult',
      billing: true,
    },
    errors: [400, 429],
  },
];

export const TAGS = [
  { name: 'Search', description: 'Synchronous search across the waterfall.' },
  { name: 'Jobs', description: 'Canonical jobs by id.' },
  { name: 'Async searches', description: 'Large searches collected in the background.' },
  { name: 'Companies', description: 'Company hiring profiles.' },
  { name: 'Watches', description: 'Watches on a company or a saved filter, delivering webhook events.' },
  { name: 'Events', description: 'The event feed and webhook replay.' },
  { name: 'Webhook endpoints', description: 'Your webhook URLs and their signing secrets.' },
  { name: 'Account', description: 'Account and billing ledger.' },
  { name: 'Providers', description: 'The seven sources and their status.' },
  { name: 'Sandbox', description: 'Keyless trial with fixed illustrative data.' },
];
