import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { examples } from '../examples.js';
import { ERROR_CATALOG, ERROR_CODES } from '../public/errors.schema.js';
import { buildOpenApiDocument, openApiOperations, type JsonSchema } from './openapi-document.js';
import { renderOpenApiYaml } from './openapi-yaml.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The endpoint summary table of interface.md, every row. */
const SPEC_OPERATIONS = [
  'POST /jobs/search',
  'GET /jobs/{id}',
  'POST /searches',
  'GET /searches/{id}',
  'GET /companies/{domain}',
  'POST /watches',
  'GET /watches',
  'DELETE /watches/{id}',
  'GET /events',
  'POST /webhooks/replay',
  'GET /account',
  'GET /billing/ledger',
  'GET /providers',
  'POST /sandbox/jobs/search',
];
/** Beyond interface.md's table: how a customer obtains its endpoints' signing secrets ("not shown" there). */
const SELF_SERVE_OPERATIONS = [
  'GET /webhook_endpoints',
  'POST /webhook_endpoints/secret',
  'POST /webhook_endpoints/secret/rotate',
];

const document = buildOpenApiDocument();

/** Ajv over the whole document, so `#/components/...` refs resolve as in any OpenAPI tool. */
function documentValidator() {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ ...document, $id: 'openapi.json' } as JsonSchema);
  return (schemaName: string, value: unknown) => {
    const validate = ajv.getSchema(`openapi.json#/components/schemas/${schemaName}`);
    if (!validate) throw new Error(`no schema ${schemaName}`);
    return { valid: validate(value), errors: validate.errors };
  };
}

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document, also after the YAML round trip', async () => {
    const validator = new Validator();
    const result = await validator.validate(parse(renderOpenApiYaml()) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes exactly the endpoints of interface.md, and the webhook endpoint routes, under the /v1 server', () => {
    expect(openApiOperations(document).sort()).toEqual([...SPEC_OPERATIONS, ...SELF_SERVE_OPERATIONS].sort());
    expect(document.servers.map((s) => s.url)).toEqual(['/v1']);
  });

  it('renders YAML that reads back to the same document, dates quoted', () => {
    const yaml = renderOpenApiYaml(document);
    expect(parse(yaml)).toEqual(JSON.parse(JSON.stringify(document)));
    expect(yaml).toContain('version: "2026-10-01"');
    expect(yaml).not.toMatch(/[&*]a\d+/); // no YAML anchors or aliases
    expect(renderOpenApiYaml()).toBe(yaml);
  });

  it('has component schemas for the main objects, each valid JSON Schema 2020-12', () => {
    for (const name of [
      'Job',
      'Source',
      'CompanyRef',
      'SearchMetadata',
      'JobSearchRequest',
      'JobSearchResponse',
      'DryRunEstimate',
      'Filters',
      'Waterfall',
      'AsyncSearch',
      'CompanyProfile',
      'Watch',
      'Event',
      'Account',
      'LedgerEntry',
      'Provider',
      'ErrorEnvelope',
    ]) {
      expect([name, name in document.components.schemas]).toEqual([name, true]);
    }
    // Strict mode: an unknown keyword or a malformed schema anywhere fails compilation. The
    // components move under $defs, the one place strict JSON Schema allows a schema map.
    const strict = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true }));
    const defs = JSON.parse(
      JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', 'components.json#/$defs/'),
    ) as JsonSchema;
    strict.addSchema({ $id: 'components.json', $defs: defs });
    for (const name of Object.keys(defs))
      expect([name, typeof strict.getSchema(`components.json#/$defs/${name}`)]).toEqual([name, 'function']);
  });

  it('accepts what the contracts accept and rejects drift', () => {
    const check = documentValidator();
    expect(check('JobSearchResponse', examples.searchResponse()).valid).toBe(true);
    expect(check('JobSearchResult', examples.searchResponse()).valid).toBe(true);
    expect(check('Job', examples.job()).valid).toBe(true);
    expect(check('Job', { ...examples.job(), unexpected: 1 }).valid).toBe(false);
    const { salary: _salary, ...withoutSalary } = examples.job();
    expect(check('Job', withoutSalary).valid).toBe(false);
    expect(check('JobSearchRequest', {}).valid).toBe(true);
    expect(check('JobSearchRequest', { filters: { titel_or: ['x'] } }).valid).toBe(false);
    expect(check('JobSearchRequest', { limit: 101 }).valid).toBe(false);
  });

  it('requires the bearer key everywhere except the sandbox, and Idempotency-Key only on authenticated POSTs', () => {
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const sandbox = path === '/sandbox/jobs/search';
        expect([path, operation.security]).toEqual([path, sandbox ? [] : undefined]);
        const idempotent = operation.parameters.some((p) => p['$ref'] === '#/components/parameters/IdempotencyKey');
        expect([path, method, idempotent]).toEqual([path, method, method === 'post' && !sandbox]);
        expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/ServiceVersion' });
        expect(operation.responses['401'] === undefined).toBe(sandbox);
      }
    }
  });

  it('puts X-Request-Id and traceparent on every response, credit headers on billable ones, Retry-After on 429', () => {
    const headersOf = (response: JsonSchema) => {
      const resolved = (
        response['$ref'] ? document.components.responses[String(response['$ref']).split('/').pop()!] : response
      ) as { headers: Record<string, unknown> };
      return Object.keys(resolved.headers);
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const headers = headersOf(response);
          expect(headers).toContain('X-Request-Id');
          expect(headers).toContain('traceparent');
          if (status === '429') expect(headers).toContain('Retry-After');
          const billable =
            ['/jobs/search', '/jobs/{id}', '/companies/{domain}', '/sandbox/jobs/search'].includes(path) &&
            status === '200';
          expect([path, status, headers.includes('X-Credits-Charged')]).toEqual([path, status, billable]);
        }
      }
    }
    expect(document.components.headers['X-Request-Id']).toMatchObject({ required: true });
  });

  it('narrows each error response to the codes of its status, per the catalogue', () => {
    const statuses = new Set(ERROR_CODES.map((code) => ERROR_CATALOG[code].status));
    expect(Object.keys(document.components.responses)).toHaveLength(statuses.size);
    const check = documentValidator();
    const envelope = (code: string) => ({
      error: {
        type: ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].type,
        code,
        message: 'm',
        doc_url: `https://api.example/docs/errors#${code}`,
        request_id: 'req_1',
      },
    });
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ ...document, $id: 'doc.json' } as JsonSchema);
    const notFound = ajv.getSchema('doc.json#/components/responses/NotFound/content/application~1json/schema')!;
    expect(notFound(envelope('not_found'))).toBe(true);
    expect(notFound(envelope('unauthorized'))).toBe(false);
    expect(check('ErrorEnvelope', envelope('rate_limited')).valid).toBe(true);
  });

  it('is the same document on every call', () => {
    expect(buildOpenApiDocument()).toEqual(document);
  });
});
