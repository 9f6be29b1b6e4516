/**
 * @jobs/client: the typed TypeScript client of the job-data aggregation API (interface.md).
 *
 *   const client = new JobsClient({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: process.env.JOBS_API_KEY });
 *   for await (const job of client.jobs.searchAll({ filters: { title_or: ['engineer'] }, limit: 50 })) ...
 *
 * The object types are inferred from the service's own zod contracts, so they are the shapes the
 * service validates and answers.
 */
export { JobsClient, API_VERSION, isApiError, type JobsClientOptions, type KeyMode } from './client.js';
export {
  JobsResource,
  SearchesResource,
  SandboxResource,
  FINAL_ASYNC_SEARCH_STATUSES,
  type JobSearchInput,
  type JobSearchPagesInput,
  type SearchPagingOptions,
  type AsyncSearchReadOptions,
  type AsyncSearchResultOptions,
  type WaitOptions,
} from './search-resources.js';
export {
  CompaniesResource,
  WatchesResource,
  EventsResource,
  LedgerResource,
  WebhooksResource,
  WebhookEndpointsResource,
  type WebhookEndpointRotateOptions,
  type EventListOptions,
  type LedgerListOptions,
} from './account-resources.js';
export {
  ApiError,
  InvalidRequestError,
  AuthenticationError,
  InsufficientCreditsError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  ApiConnectionError,
  AsyncSearchFailedError,
  WebhookVerificationError,
  type ApiErrorInit,
  type WebhookVerificationFailure,
} from './errors.js';
export type {
  ResponseInfo,
  BilledResponseInfo,
  CreditInfo,
  RateLimitInfo,
  ResponseHeaders,
  WithResponse,
  Billed,
} from './response-info.js';
export {
  DEFAULT_RETRY_POLICY,
  backoffDelayMs,
  retryDecision,
  type RetryPolicy,
  type RetryDecision,
  type RetryReason,
  type AttemptOutcome,
} from './retry-policy.js';
export {
  defaultSleep,
  type AbortSignalLike,
  type FetchLike,
  type FetchInit,
  type FetchResponseLike,
  type SleepLike,
  type RequestOptions,
  type RetryEvent,
} from './transport.js';
export { walkPages, itemsOf, CreditBudget, type CursorPage } from './paging.js';
export {
  verifyWebhook,
  verifyWebhookSignature,
  computeWebhookSignature,
  signWebhookPayload,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  type VerifyWebhookSignatureInput,
  type VerifiedSignature,
} from './webhooks.js';
export { CLIENT_VERSION } from './version.js';

/** The API's object types, inferred from its zod contracts. */
export type {
  Account,
  AsyncSearch,
  AsyncSearchCreateRequestInput,
  AsyncSearchStatus,
  AsyncSearchFinalStatus,
  ClosedReason,
  CompanyProfile,
  CompanyRef,
  DryRunEstimate,
  EmploymentType,
  ErrorBody,
  ErrorCode,
  ErrorType,
  Event,
  EventOf,
  EventType,
  EventListResponse,
  Filters,
  FiltersInput,
  HiringPulse,
  IsHiring,
  Job,
  JobClosedLifecycle,
  JobRepostedLifecycle,
  JobSearchRequestInput,
  JobSearchResponse,
  JobStatus,
  LedgerEntry,
  LedgerListResponse,
  LedgerReason,
  License,
  Location,
  Plan,
  Provider,
  ProviderListResponse,
  ProviderSlug,
  ProviderStatus,
  RateLimit,
  Salary,
  SearchMetadata,
  SearchStatus,
  Seniority,
  Source,
  Waterfall,
  WaterfallInput,
  WaterfallStrategy,
  Watch,
  WatchCreateRequestInput,
  WatchEventType,
  WatchListResponse,
  WatchStatus,
  WatchType,
  WebhookReplayResponse,
} from '@jobs/contracts';
