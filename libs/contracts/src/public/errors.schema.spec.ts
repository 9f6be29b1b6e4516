import { ERROR_CATALOG, ErrorCodeSchema, ErrorEnvelopeSchema, errorDocUrl, type ErrorCode } from './errors.schema.js';

const base = { message: 'Something', request_id: 'req_1' };

function validBody(code: ErrorCode): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...base,
    code,
    type: ERROR_CATALOG[code].type,
    doc_url: errorDocUrl('https://api.example', code),
  };
  if (code === 'insufficient_credits')
    Object.assign(body, { credits_needed: 3, upgrade_url: 'https://app.example/billing' });
  if (code === 'plan_required')
    Object.assign(body, { required_plan: 'pro', upgrade_url: 'https://app.example/billing' });
  if (code === 'unknown_filter') body['param'] = 'filters.titel_or';
  return body;
}

describe('errorDocUrl', () => {
  it("is the code's anchor on the errors page of the public host, with or without a trailing slash", () => {
    expect(errorDocUrl('http://127.0.0.1:8080', 'rate_limited')).toBe('http://127.0.0.1:8080/docs/errors#rate_limited');
    expect(errorDocUrl('https://api.example/jobs/', 'not_found')).toBe(
      'https://api.example/jobs/docs/errors#not_found',
    );
  });
});

describe('ERROR_CATALOG', () => {
  it('matches the spec table', () => {
    expect(Object.fromEntries(Object.entries(ERROR_CATALOG).map(([code, e]) => [code, [e.status, e.type]]))).toEqual({
      invalid_request: [400, 'invalid_request_error'],
      unknown_filter: [400, 'invalid_request_error'],
      unauthorized: [401, 'authentication_error'],
      insufficient_credits: [402, 'billing_error'],
      plan_required: [403, 'permission_error'],
      not_found: [404, 'not_found_error'],
      idempotency_conflict: [409, 'conflict_error'],
      rate_limited: [429, 'rate_limit_error'],
      internal_error: [500, 'api_error'],
    });
    expect(Object.keys(ERROR_CATALOG).sort()).toEqual([...ErrorCodeSchema.options].sort());
  });
});

describe('ErrorEnvelopeSchema', () => {
  it.each(ErrorCodeSchema.options)('accepts a valid %s envelope', (code) => {
    expect(ErrorEnvelopeSchema.safeParse({ error: validBody(code) }).success).toBe(true);
  });

  it('rejects a type that does not match the code', () => {
    const result = ErrorEnvelopeSchema.safeParse({ error: { ...validBody('not_found'), type: 'api_error' } });
    expect(result.error?.issues[0]?.path).toEqual(['error', 'type']);
  });

  it('enforces the presence rules', () => {
    const pathOf = (body: Record<string, unknown>) =>
      ErrorEnvelopeSchema.safeParse({ error: body }).error?.issues[0]?.path;
    const { credits_needed: _c, ...noCredits } = validBody('insufficient_credits');
    expect(pathOf(noCredits)).toEqual(['error', 'credits_needed']);
    const { required_plan: _p, ...noPlan } = validBody('plan_required');
    expect(pathOf(noPlan)).toEqual(['error', 'required_plan']);
    const { upgrade_url: _u, ...noUpgrade } = validBody('plan_required');
    expect(pathOf(noUpgrade)).toEqual(['error', 'upgrade_url']);
    expect(pathOf({ ...validBody('not_found'), param: 'id' })).toEqual(['error', 'param']);
    expect(pathOf({ ...validBody('not_found'), credits_needed: 1 })).toEqual(['error', 'credits_needed']);
  });

  it('requires doc_url to point at the section of its own code on /docs/errors', () => {
    const pathOf = (body: Record<string, unknown>) =>
      ErrorEnvelopeSchema.safeParse({ error: body }).error?.issues[0]?.path;
    expect(pathOf({ ...validBody('not_found'), doc_url: 'https://api.example/docs/errors#rate_limited' })).toEqual([
      'error',
      'doc_url',
    ]);
    expect(pathOf({ ...validBody('not_found'), doc_url: 'https://docs.jobdata.example/v1/errors#not_found' })).toEqual([
      'error',
      'doc_url',
    ]);
    expect(
      pathOf({ ...validBody('not_found'), doc_url: 'http://127.0.0.1:8080/docs/errors#not_found' }),
    ).toBeUndefined();
  });

  it('rejects unknown codes, a missing doc_url, a bad required_plan and extra fields', () => {
    expect(ErrorEnvelopeSchema.safeParse({ error: { ...validBody('not_found'), code: 'gone' } }).success).toBe(false);
    const { doc_url: _d, ...noDoc } = validBody('not_found');
    expect(ErrorEnvelopeSchema.safeParse({ error: noDoc }).success).toBe(false);
    expect(
      ErrorEnvelopeSchema.safeParse({ error: { ...validBody('plan_required'), required_plan: 'gold' } }).success,
    ).toBe(false);
    expect(ErrorEnvelopeSchema.safeParse({ error: { ...validBody('not_found'), hint: 'x' } }).success).toBe(false);
    expect(ErrorEnvelopeSchema.safeParse(validBody('not_found')).success).toBe(false);
  });
});
