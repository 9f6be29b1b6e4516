import { createHmac } from 'node:crypto';
import { examples, type Event } from '@jobs/contracts';
import { WebhookVerificationError } from './errors.js';
import { computeWebhookSignature, signWebhookPayload, verifyWebhook, verifyWebhookSignature } from './webhooks.js';

const secret = 'whsec_0123456789abcdef';
const T = 1_790_000_000;
const now = () => T * 1000;
const opened: Event = {
  id: 'evt_open1',
  type: 'job.opened',
  created_at: '2026-10-01T12:00:00Z',
  watch_id: 'wat_1',
  data: { job: examples.job() },
};
const completed: Event = {
  id: 'evt_done1',
  type: 'search.completed',
  created_at: '2026-10-01T12:00:00Z',
  watch_id: null,
  data: { search: { id: 'srch_1', status: 'partial', jobs_found: 12 } },
};
/** The raw body as the dispatcher might send it: key order and spacing are the sender's. */
const raw = (event: Event) => JSON.stringify(event, null, 1);
/** The reference: HMAC-SHA256 over `<t>.<raw body>`, lowercase hex. */
const v1 = (t: number | string, body: string | Buffer, key = secret) =>
  createHmac('sha256', key).update(`${t}.`).update(body).digest('hex');

function failure(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('expected a verification failure');
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed as the spec says and returns the typed event', () => {
    const body = raw(opened);
    const event = verifyWebhook({ payload: body, signature: `t=${T},v1=${v1(T, body)}`, secret, now });
    expect(event).toEqual(opened);
    if (event.type === 'job.opened') expect(event.data.job.sources.length).toBeGreaterThan(0);
    expect(
      verifyWebhook({ payload: raw(completed), signature: `t=${T},v1=${v1(T, raw(completed))}`, secret, now }),
    ).toEqual(completed);
  });

  it('signs the exact raw bytes: a Buffer body with non-ASCII text verifies, its re-serialisation does not', () => {
    const event: Event = { ...completed, id: 'evt_cafe' };
    const body = Buffer.from(JSON.stringify(event).replace('"srch_1"', '"srch_1"   '), 'utf8');
    const header = `t=${T},v1=${v1(T, body)}`;
    expect(verifyWebhook({ payload: body, signature: header, secret, now }).id).toBe('evt_cafe');
    expect(
      failure(() => verifyWebhook({ payload: JSON.stringify(event), signature: header, secret, now })).reason,
    ).toBe('signature_mismatch');
    const unicode = Buffer.from('{"x":"Café — Nuit"}');
    expect(computeWebhookSignature(secret, T, unicode)).toBe(v1(T, unicode));
    expect(computeWebhookSignature(secret, T, new Uint8Array(unicode))).toBe(v1(T, unicode));
  });

  it('splits on "," and each part on its first "=": order, spaces, unknown schemes and several v1 values', () => {
    const body = raw(completed);
    const good = v1(T, body);
    for (const header of [
      `v1=${good},t=${T}`,
      `t=${T}, v1=${good}`,
      `t=${T},v0=abc,v1=${'0'.repeat(64)},v1=${good}`,
      `t=${T},v1=${good},x=a=b=c`,
    ]) {
      expect(verifyWebhookSignature({ payload: body, signature: header, secret, now })).toEqual({ timestamp: T });
    }
    // Node's repeated headers arrive as an array
    expect(verifyWebhookSignature({ payload: body, signature: [`t=${T}`, `v1=${good}`], secret, now })).toEqual({
      timestamp: T,
    });
    // a value holding "=" keeps everything after the first one: it is not a match here
    expect(
      failure(() => verifyWebhookSignature({ payload: body, signature: `t=${T},v1=${good}=`, secret, now })).reason,
    ).toBe('signature_mismatch');
  });

  it('compares hex to hex: an upper-case or truncated signature is not the lowercase hex the service sends', () => {
    const body = raw(completed);
    const good = v1(T, body);
    expect(
      failure(() =>
        verifyWebhookSignature({ payload: body, signature: `t=${T},v1=${good.toUpperCase()}`, secret, now }),
      ).reason,
    ).toBe('signature_mismatch');
    expect(
      failure(() => verifyWebhookSignature({ payload: body, signature: `t=${T},v1=${good.slice(0, 63)}`, secret, now }))
        .reason,
    ).toBe('signature_mismatch');
  });

  it('refuses a wrong secret, a tampered body and a tampered timestamp', () => {
    const body = raw(completed);
    const header = `t=${T},v1=${v1(T, body)}`;
    expect(failure(() => verifyWebhook({ payload: body, signature: header, secret: 'whsec_other', now })).reason).toBe(
      'signature_mismatch',
    );
    expect(
      failure(() => verifyWebhook({ payload: body.replace('12', '13'), signature: header, secret, now })).reason,
    ).toBe('signature_mismatch');
    expect(
      failure(() => verifyWebhook({ payload: body, signature: `t=${T + 1},v1=${v1(T, body)}`, secret, now })).reason,
    ).toBe('signature_mismatch');
  });

  it('refuses a missing or malformed header', () => {
    const body = raw(completed);
    for (const signature of [undefined, null, '', '  ', []]) {
      expect(failure(() => verifyWebhook({ payload: body, signature, secret, now })).reason).toBe('missing_header');
    }
    for (const signature of [
      `v1=${v1(T, body)}`,
      `t=${T}`,
      `t=abc,v1=${v1(T, body)}`,
      `t=-5,v1=${v1(-5, body)}`,
      'garbage',
    ]) {
      expect(failure(() => verifyWebhook({ payload: body, signature, secret, now })).reason).toBe('malformed_header');
    }
  });

  it('refuses a t more than 5 minutes away from the clock, either way; the tolerance is configurable', () => {
    const body = raw(completed);
    const at = (t: number) => `t=${t},v1=${v1(t, body)}`;
    expect(verifyWebhookSignature({ payload: body, signature: at(T - 300), secret, now }).timestamp).toBe(T - 300);
    expect(verifyWebhookSignature({ payload: body, signature: at(T + 300), secret, now }).timestamp).toBe(T + 300);
    expect(failure(() => verifyWebhook({ payload: body, signature: at(T - 301), secret, now })).reason).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(failure(() => verifyWebhook({ payload: body, signature: at(T + 301), secret, now })).reason).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(
      failure(() => verifyWebhook({ payload: body, signature: at(T - 61), secret, now, toleranceSeconds: 60 })).reason,
    ).toBe('timestamp_out_of_tolerance');
    expect(
      verifyWebhook({ payload: body, signature: at(T - 86_400), secret, now, toleranceSeconds: Infinity }).id,
    ).toBe('evt_done1');
  });

  it('checks the signature before the clock: a forged old delivery is a mismatch, not a stale one', () => {
    const body = raw(completed);
    expect(
      failure(() => verifyWebhook({ payload: body, signature: `t=${T - 9999},v1=${'a'.repeat(64)}`, secret, now }))
        .reason,
    ).toBe('signature_mismatch');
  });

  it('keeps fields a newer service added, at any depth, without refusing the event', () => {
    const body = JSON.stringify({ ...completed, surprise: true, data: { ...completed.data, extra: 1 } });
    const signature = `t=${T},v1=${v1(T, body)}`;
    expect(verifyWebhook({ payload: body, signature, secret, now })).toMatchObject({
      id: 'evt_done1',
      surprise: true,
      data: { extra: 1 },
    });
  });

  it('refuses a signed body that breaks a known field, unless validate is false', () => {
    const body = JSON.stringify({ ...completed, type: 'job.vanished' });
    const signature = `t=${T},v1=${v1(T, body)}`;
    expect(failure(() => verifyWebhook({ payload: body, signature, secret, now })).reason).toBe('invalid_payload');
    expect(verifyWebhook({ payload: body, signature, secret, now, validate: false })).toMatchObject({
      id: 'evt_done1',
      type: 'job.vanished',
    });
    const notJson = 'not json';
    expect(
      failure(() => verifyWebhook({ payload: notJson, signature: `t=${T},v1=${v1(T, notJson)}`, secret, now })).reason,
    ).toBe('invalid_payload');
  });

  it('signWebhookPayload makes the header the service sends (to test a receiver)', () => {
    const body = raw(opened);
    const header = signWebhookPayload({ payload: body, secret, timestamp: T });
    expect(header).toBe(`t=${T},v1=${v1(T, body)}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook({ payload: body, signature: signWebhookPayload({ payload: body, secret }), secret }).id).toBe(
      'evt_open1',
    );
  });

  it('refuses to verify with an empty secret (a configuration mistake, not a bad delivery)', () => {
    expect(() =>
      verifyWebhookSignature({ payload: '{}', signature: `t=${T},v1=${v1(T, '{}', 'x')}`, secret: '', now }),
    ).toThrow(TypeError);
  });

  describe('during a secret rotation (two v1 signatures, the new secret first)', () => {
    const previous = 'whsec_previous0123456789';
    const body = raw(opened);
    const rotated = `t=${T},v1=${v1(T, body)},v1=${v1(T, body, previous)}`;

    it('accepts the delivery with the new secret and with the old one', () => {
      expect(verifyWebhook({ payload: body, signature: rotated, secret, now })).toEqual(opened);
      expect(verifyWebhook({ payload: body, signature: rotated, secret: previous, now })).toEqual(opened);
      // the order of the two does not matter to the receiver
      expect(
        verifyWebhook({ payload: body, signature: `t=${T},v1=${v1(T, body, previous)},v1=${v1(T, body)}`, secret, now })
          .id,
      ).toBe('evt_open1');
    });

    it('refuses a third secret, a tampered body and a stale t, however many v1 there are', () => {
      expect(
        failure(() => verifyWebhook({ payload: body, signature: rotated, secret: 'whsec_neither', now })).reason,
      ).toBe('signature_mismatch');
      expect(
        failure(() => verifyWebhook({ payload: body.replace('1', '2'), signature: rotated, secret, now })).reason,
      ).toBe('signature_mismatch');
      expect(
        failure(() =>
          verifyWebhook({ payload: body, signature: rotated, secret: previous, now: () => (T + 301) * 1000 }),
        ).reason,
      ).toBe('timestamp_out_of_tolerance');
    });
  });
});
