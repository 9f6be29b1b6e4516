import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { requestContext } from './request-context.js';
import { newId } from './ids.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  it('writes structured lines with the service and the request id', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'billing' }, stream);
    requestContext.run({ requestId: 'req_abc', stages: [] }, () => logger.info('charged'));
    expect(lines[0]).toMatchObject({ service: 'billing', request_id: 'req_abc', msg: 'charged', level: 'info' });
  });

  it('never writes keys or secrets', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'gateway' }, stream);
    logger.info(
      { req: { headers: { authorization: 'Bearer svc_live_secret' } }, live_key: 'svc_live_x', secret: 's3' },
      'request',
    );
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('svc_live_secret');
    expect(text).not.toContain('svc_live_x');
    expect(text).not.toContain('s3"');
  });

  it('never writes secret headers, and writes URLs without their secrets', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'gateway' }, stream);
    const key = `svc_live_${'c'.repeat(32)}`;
    const headers = {
      authorization: `Bearer ${key}`,
      cookie: 'dashboard_session=cookie-value',
      'idempotency-key': 'idempotency-value',
      'service-signature': 't=1,v1=signature-value',
      'x-csrf-token': 'csrf-value',
    };
    logger.info({ req: { url: `/v1/account?api_key=${key}&limit=5`, headers } }, 'request');
    logger.info({ url: `http://127.0.0.1:8080/v1/jobs/${key}?token=t0k` }, 'request');
    const text = JSON.stringify(lines);
    for (const secret of [key, 'cookie-value', 'idempotency-value', 'signature-value', 'csrf-value', 't0k'])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ req: { url: '/v1/account?api_key=REDACTED&limit=5' } });
    expect(lines[1]).toMatchObject({ url: 'http://127.0.0.1:8080/v1/jobs/REDACTED?token=REDACTED' });
  });
});

describe('newId', () => {
  it('makes prefixed, distinct ids', () => {
    const a = newId('job');
    expect(a).toMatch(/^job_[0-9a-z]{16}$/);
    expect(newId('job')).not.toBe(a);
  });

  it('never repeats across refills of its random pool', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newId('req')));
    expect(ids.size).toBe(2000);
    expect(newId('svc_live', 32)).toMatch(/^svc_live_[0-9a-z]{32}$/);
  });
});
