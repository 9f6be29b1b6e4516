/**
 * The OpenAPI 3.1 description of the whole public API of interface.md, generated from the zod
 * schemas of this library (zod 4's native JSON Schema output, draft 2020-12, which is the
 * schema dialect of OpenAPI 3.1). Nothing here is written twice: a schema change shows up in
 * the document, and the gateway's end-to-end test checks real responses against it.
 *
 * Request bodies and parameters are rendered as the INPUT a client may send (defaults optional),
 * responses as the OUTPUT the service sends (every field present).
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `POST /watches` answers 201 with the Watch; `DELETE /watches/{id}` answers 204, no body.
 * - The webhook endpoint routes (`/webhook_endpoints`) are not in interface.md's table: they are
 *   how a customer obtains the per-endpoint signing secret, which the spec leaves "not shown".
 * - `GET /providers` may answer 401, 429 and 500 like every authenticated endpoint.
 * - Every operation that validates a path parameter, query string or body may answer
 *   `400 invalid_request`, also where the spec's list omits 400 (a malformed `job_` id, an
 *   unknown query parameter, `limit=0`).
 * - Each error response narrows `error.code` to the codes of its HTTP status.
 * - Response headers: `X-Request-Id` is required on every response; `X-Credits-Charged` and
 *   `X-Credits-Remaining` on every 200 of a billable endpoint (search, sandbox, get job, company
 *   profile); `RateLimit-*` and `Service-Version` are described where they may appear;
 *   `Retry-After` is required on 429.
 */
import { z } from 'zod';
import { AccountSchema, RateLimitSchema } from '../public/account.schema.js';
import { AsyncSearchCreateRequestSchema, AsyncSearchSchema } from '../public/async-search.schema.js';
import { CompanyProfileSchema, CompanyRefSchema, HiringPulseSchema, IsHiringSchema } from '../public/company.schema.js';
import { ERROR_CATALOG, ERROR_CODES, ErrorEnvelopeSchema, type ErrorCode } from '../public/errors.schema.js';
import {
  CompanyHiringStartedEventSchema,
  CompanyHiringStoppedEventSchema,
  EventListResponseSchema,
  EventSchema,
  JobClosedEventSchema,
  JobOpenedEventSchema,
  JobRepostedEventSchema,
  JobUpdatedEventSchema,
  SearchCompletedEventSchema,
} from '../public/event.schema.js';
import { FiltersSchema } from '../public/filters.schema.js';
import { HEADERS, IdempotencyKeySchema, SERVICE_VERSION, ServiceVersionSchema } from '../public/headers.schema.js';
import { RequestIdSchema } from '../public/ids.schema.js';
import {
  DryRunEstimateSchema,
  JobSearchRequestSchema,
  JobSearchResponseSchema,
  JobSearchResultSchema,
  SearchMetadataSchema,
} from '../public/job-search.schema.js';
import { JobSchema, LicenseSchema, LocationSchema, SalarySchema, SourceSchema } from '../public/job.schema.js';
import { LedgerEntrySchema, LedgerListResponseSchema } from '../public/ledger.schema.js';
import { ProviderListResponseSchema, ProviderSchema } from '../public/providers.schema.js';
import { WatchCreateRequestSchema, WatchListResponseSchema, WatchSchema } from '../public/watch.schema.js';
import { WaterfallSchema } from '../public/waterfall.schema.js';
import { WebhookReplayRequestSchema, WebhookReplayResponseSchema } from '../public/webhook.schema.js';
import {
  WebhookEndpointListResponseSchema,
  WebhookEndpointRotatedSchema,
  WebhookEndpointRotateRequestSchema,
  WebhookEndpointSchema,
  WebhookEndpointSecretRequestSchema,
  WebhookEndpointSecretSchema,
} from '../public/webhook-endpoint.schema.js';
import { OPERATIONS, TAGS, type ErrorStatus, type OperationSpec } from './openapi-operations.js';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
}

/** The document's base address: every path below is relative to it. */
export const OPENAPI_SERVER_URL = '/v1';

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});
const schemaUri = (id: string) => `#/components/schemas/${id}`;

/** Response objects: the service sends them, so they are rendered as zod OUTPUT. */
const OUTPUT_COMPONENTS: Record<string, z.ZodType> = {
  Job: JobSchema,
  Source: SourceSchema,
  CompanyRef: CompanyRefSchema,
  Location: LocationSchema,
  Salary: SalarySchema,
  License: LicenseSchema,
  SearchMetadata: SearchMetadataSchema,
  JobSearchResponse: JobSearchResponseSchema,
  DryRunEstimate: DryRunEstimateSchema,
  JobSearchResult: JobSearchResultSchema,
  AsyncSearch: AsyncSearchSchema,
  IsHiring: IsHiringSchema,
  HiringPulse: HiringPulseSchema,
  CompanyProfile: CompanyProfileSchema,
  Filters: FiltersSchema,
  Watch: WatchSchema,
  WatchListResponse: WatchListResponseSchema,
  JobOpenedEvent: JobOpenedEventSchema,
  JobRepostedEvent: JobRepostedEventSchema,
  JobClosedEvent: JobClosedEventSchema,
  JobUpdatedEvent: JobUpdatedEventSchema,
  CompanyHiringStartedEvent: CompanyHiringStartedEventSchema,
  CompanyHiringStoppedEvent: CompanyHiringStoppedEventSchema,
  SearchCompletedEvent: SearchCompletedEventSchema,
  Event: EventSchema,
  EventListResponse: EventListResponseSchema,
  WebhookReplayResponse: WebhookReplayResponseSchema,
  WebhookEndpoint: WebhookEndpointSchema,
  WebhookEndpointListResponse: WebhookEndpointListResponseSchema,
  WebhookEndpointSecret: WebhookEndpointSecretSchema,
  WebhookEndpointRotated: WebhookEndpointRotatedSchema,
  RateLimit: RateLimitSchema,
  Account: AccountSchema,
  LedgerEntry: LedgerEntrySchema,
  LedgerListResponse: LedgerListResponseSchema,
  Provider: ProviderSchema,
  ProviderListResponse: ProviderListResponseSchema,
  ErrorEnvelope: ErrorEnvelopeSchema,
};

/** Request bodies: what a client may send, rendered as zod INPUT (defaults make fields optional). */
const INPUT_COMPONENTS: Record<string, z.ZodType> = {
  Filters: FiltersSchema,
  Waterfall: WaterfallSchema,
  JobSearchRequest: JobSearchRequestSchema,
  AsyncSearchCreateRequest: AsyncSearchCreateRequestSchema,
  WatchCreateRequest: WatchCreateRequestSchema,
  WebhookReplayRequest: WebhookReplayRequestSchema,
  WebhookEndpointSecretRequest: WebhookEndpointSecretRequestSchema,
  WebhookEndpointRotateRequest: WebhookEndpointRotateRequestSchema,
};

function componentSchemas(components: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: schemaUri });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // A component lives inside the document: it carries no dialect or id of its own.
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    out[id] = rest;
  }
  return out;
}

/** Both renderings; a name present in both must render identically, or one of them would lie. */
function allComponentSchemas(): Record<string, JsonSchema> {
  const output = componentSchemas(OUTPUT_COMPONENTS, 'output');
  const input = componentSchemas(INPUT_COMPONENTS, 'input');
  for (const [id, schema] of Object.entries(input)) {
    if (id in output && JSON.stringify(output[id]) !== JSON.stringify(schema)) {
      throw new Error(
        `component ${id} differs between request and response rendering; give the request one its own name`,
      );
    }
  }
  return { ...output, ...input };
}

/** A standalone JSON Schema (inline, no refs) for a header or parameter value. */
function inlineSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema;
  return rest;
}

/** Path or query parameters from a strict object schema of the contracts. */
function parametersOf(schema: z.ZodObject, location: 'path' | 'query'): JsonSchema[] {
  const json = inlineSchema(schema, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

const integerHeader = (description: string, required = false) => ({
  description,
  required,
  schema: { type: 'integer', minimum: 0 },
});

function headerComponents(): Record<string, JsonSchema> {
  return {
    [HEADERS.requestId]: {
      description: "The request's id (`req_...`); equals `error.request_id` on errors.",
      required: true,
      schema: inlineSchema(RequestIdSchema, 'output'),
    },
    [HEADERS.creditsCharged]: integerHeader(
      'Credits this request charged (0 for re-reads, dry runs, the sandbox and test keys).',
      true,
    ),
    [HEADERS.creditsRemaining]: integerHeader('Credits left on the account after this request.', true),
    [HEADERS.rateLimitLimit]: integerHeader('Requests allowed in the current window.'),
    [HEADERS.rateLimitRemaining]: integerHeader('Requests left in the current window.'),
    [HEADERS.rateLimitReset]: integerHeader('Seconds until the window resets (not a timestamp).'),
    [HEADERS.retryAfter]: integerHeader('Seconds to wait before retrying.', true),
    [HEADERS.serviceVersion]: {
      description: 'The API version used to answer.',
      required: false,
      schema: inlineSchema(ServiceVersionSchema, 'output'),
    },
    [HEADERS.traceparent]: {
      description:
        "W3C Trace Context of this request's trace in the service " +
        "(the service's own trace: a `traceparent` sent with the " +
        'request is linked, not continued). Give it to support with ' +
        '`X-Request-Id`.',
      required: false,
      schema: { type: 'string', pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    },
  };
}

const COMMON_RESPONSE_HEADERS = [
  HEADERS.requestId,
  HEADERS.traceparent,
  HEADERS.serviceVersion,
  HEADERS.rateLimitLimit,
  HEADERS.rateLimitRemaining,
  HEADERS.rateLimitReset,
];
const BILLING_HEADERS = [HEADERS.creditsCharged, HEADERS.creditsRemaining];

function headersRefs(names: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

const ERROR_STATUSES: readonly ErrorStatus[] = [400, 401, 402, 403, 404, 409, 429, 500];
const ERROR_RESPONSE_NAMES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'InsufficientCredits',
  403: 'PlanRequired',
  404: 'NotFound',
  409: 'IdempotencyConflict',
  429: 'RateLimited',
  500: 'InternalError',
};

function codesFor(status: ErrorStatus): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_CATALOG[code].status === status);
}

function errorResponses(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of ERROR_STATUSES) {
    const codes = codesFor(status);
    out[ERROR_RESPONSE_NAMES[status]] = {
      description:
        `${codes.map((code) => `\`${code}\``).join(' or ')} ` +
        `(${ERROR_CATALOG[codes[0]!].type}); retry: ` +
        `${ERROR_CATALOG[codes[0]!].retry}.`,
      headers: headersRefs(status === 429 ? [...COMMON_RESPONSE_HEADERS, HEADERS.retryAfter] : COMMON_RESPONSE_HEADERS),
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref('schemas', 'ErrorEnvelope'),
              { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
  }
  return out;
}

function buildOperation(spec: OperationSpec): OpenApiOperation {
  const authenticated = spec.authenticated !== false;
  const parameters: JsonSchema[] = [
    ...(spec.pathParams ? parametersOf(spec.pathParams, 'path') : []),
    ...(spec.query ? parametersOf(spec.query, 'query') : []),
    ref('parameters', 'ServiceVersion'),
    ...(authenticated && spec.method === 'post' ? [ref('parameters', 'IdempotencyKey')] : []),
  ];
  const success: JsonSchema = {
    description: spec.success.description,
    headers: headersRefs(
      spec.success.billing ? [...COMMON_RESPONSE_HEADERS, ...BILLING_HEADERS] : COMMON_RESPONSE_HEADERS,
    ),
    ...(spec.success.schema
      ? { content: { 'application/json': { schema: ref('schemas', spec.success.schema) } } }
      : {}),
  };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    ...(authenticated ? {} : { security: [] }),
    parameters,
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', spec.body) } } } }
      : {}),
    responses: {
      [String(spec.success.status)]: success,
      ...Object.fromEntries(
        spec.errors.map((status) => [String(status), ref('responses', ERROR_RESPONSE_NAMES[status])]),
      ),
    },
  };
}

/** The whole public API as an OpenAPI 3.1 document. Pure: the same document on every call. */
export function buildOpenApiDocument(): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const spec of OPERATIONS) (paths[spec.path] ??= {})[spec.method] = buildOperation(spec);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Job Data Aggregation API',
      version: SERVICE_VERSION,
      description:
        'One API key, one bill, every job source: searches the own ' +
        'index and up to six partner providers, merges the results ' +
        'into canonical jobs and charges one credit per unique job ' +
        'the account never paid for. ' +
        'Send `Authorization: Bearer svc_live_...` (live) or ' +
        '`svc_test_...` (sandbox data, never charged); `POST ' +
        '/sandbox/jobs/search` needs no key. ' +
        `The version is the date in the \`Service-Version\` header ` +
        `(\`${SERVICE_VERSION}\`). Errors share one envelope; ` +
        `\`error.code\` is stable within a version.`,
    },
    servers: [{ url: OPENAPI_SERVER_URL, description: 'API version 1, relative to the host serving this document' }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths,
    components: {
      schemas: allComponentSchemas(),
      parameters: {
        ServiceVersion: {
          name: HEADERS.serviceVersion,
          in: 'header',
          required: false,
          description: "API version; defaults to the account's pinned version.",
          schema: inlineSchema(ServiceVersionSchema, 'input'),
        },
        IdempotencyKey: {
          name: HEADERS.idempotencyKey,
          in: 'header',
          required: false,
          description:
            'Same key and body replays the first response without charging again; a different body gives 409.',
          schema: inlineSchema(IdempotencyKeySchema, 'input'),
        },
      },
      headers: headerComponents(),
      responses: errorResponses(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `svc_live_...` or `svc_test_...`, only in the Authorization header.',
        },
      },
    },
  };
}

/** Every `METHOD path` the document describes, e.g. `POST /jobs/search`. */
export function openApiOperations(document: OpenApiDocument = buildOpenApiDocument()): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}
