import {
  holdsSecret,
  isSecretName,
  REDACTED,
  redactPath,
  redactQuery,
  redactSecrets,
  redactUrl,
} from './secret-redaction.js';

const LIVE_KEY = `svc_live_${'a1'.repeat(16)}`;
const TEST_KEY = `svc_test_${'z9'.repeat(16)}`;
const WEBHOOK_SECRET = 'whsec_Qm9vbV9ub3RfYV9yZWFsX3NlY3JldA';

describe('credentials by shape', () => {
  it('finds API keys and webhook secrets anywhere in a text, and nothing else', () => {
    for (const text of [LIVE_KEY, TEST_KEY, WEBHOOK_SECRET, `Bearer ${LIVE_KEY}`, `x,${TEST_KEY},y`])
      expect(holdsSecret(text)).toBe(true);
    for (const text of ['svc_live_', 'job_abc', 'req_123', 'cur_xyz', 'GET /v1/jobs/:id', ''])
      expect(holdsSecret(text)).toBe(false);
  });

  it('replaces each credential and keeps the rest', () => {
    expect(redactSecrets(`key ${LIVE_KEY} and ${WEBHOOK_SECRET}.`)).toBe(`key ${REDACTED} and ${REDACTED}.`);
    const plain = 'SELECT 1';
    expect(redactSecrets(plain)).toBe(plain);
  });
});

describe('secret parameter names', () => {
  it.each([
    'api_key',
    'apikey',
    'apiKey',
    'key',
    'access_token',
    'pageToken',
    'client_secret',
    'password',
    'passwd',
    'sig',
    'Signature',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'AWSAccessKeyId',
    'authorization',
    'cookie',
    'set-cookie',
    'idempotency-key',
    'service-signature',
    'x-csrf-token',
    'session',
  ])('%s is secret', (name) => expect(isSecretName(name)).toBe(true));

  it.each(['cursor', 'limit', 'since', 'job_id', 'page', 'offset', 'title', 'company_domain', 'signal', 'design'])(
    '%s is not',
    (name) => expect(isSecretName(name)).toBe(false),
  );
});

describe('redactQuery', () => {
  it('replaces a key under any name, and any value under a secret name, keeping the names', () => {
    expect(redactQuery(`api_key=${LIVE_KEY}&limit=5`)).toBe(`api_key=${REDACTED}&limit=5`);
    expect(redactQuery(`q=${TEST_KEY}&cursor=cur_1`)).toBe(`q=${REDACTED}&cursor=cur_1`);
    expect(redactQuery('token=abc&password=hunter2&since=evt_1')).toBe(
      `token=${REDACTED}&password=${REDACTED}&since=evt_1`,
    );
  });

  it('keeps the leading ? of a search (undici) and the bytes of what it keeps', () => {
    expect(redactQuery(`?title=a%20b+c&x=${encodeURIComponent(`Bearer ${LIVE_KEY}`)}`)).toBe(
      `?title=a%20b+c&x=${REDACTED}`,
    );
  });

  it('finds a percent-encoded key, and a key used as the name itself', () => {
    const encoded = LIVE_KEY.replace(/_/g, '%5F');
    expect(redactQuery(`k=${encoded}`)).toBe(`k=${REDACTED}`);
    expect(redactQuery(LIVE_KEY)).toBe(REDACTED);
    expect(redactQuery(`${LIVE_KEY}=1&a=b`)).toBe(`${REDACTED}=${REDACTED}&a=b`);
  });

  it('reads a malformed escape as it is', () => {
    expect(redactQuery(`a=%E0%A4%A&b=${LIVE_KEY}`)).toBe(`a=%E0%A4%A&b=${REDACTED}`);
  });
});

describe('redactPath', () => {
  it('replaces the segments that hold a key, encoded or not', () => {
    expect(redactPath(`/v1/jobs/${LIVE_KEY}`)).toBe(`/v1/jobs/${REDACTED}`);
    expect(redactPath(`/admin/keys/${TEST_KEY.replace('_', '%5f')}`)).toBe(`/admin/keys/${REDACTED}`);
    expect(redactPath('/v1/jobs/job_123')).toBe('/v1/jobs/job_123');
  });
});

describe('redactUrl', () => {
  it('redacts user information, path, query and fragment of a full URL', () => {
    expect(redactUrl(`https://user:pw@hooks.example.com/in/${LIVE_KEY}?token=t&a=1#${WEBHOOK_SECRET}`)).toBe(
      `https://${REDACTED}@hooks.example.com/in/${REDACTED}?token=${REDACTED}&a=1#${REDACTED}`,
    );
  });

  it('redacts a request target, and leaves a clean URL as it is', () => {
    expect(redactUrl(`/v1/account?api_key=${LIVE_KEY}`)).toBe(`/v1/account?api_key=${REDACTED}`);
    const clean = 'http://127.0.0.1:8090/provider-a/jobs?page=2&title=engineer';
    expect(redactUrl(clean)).toBe(clean);
  });
});
