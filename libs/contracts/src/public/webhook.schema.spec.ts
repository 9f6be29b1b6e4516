import {
  ServiceSignatureHeaderSchema,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WebhookReplayRequestSchema,
  WebhookReplayResponseSchema,
} from './webhook.schema.js';

describe('webhook replay', () => {
  it('requires an evt_ event_id and nothing else', () => {
    expect(WebhookReplayRequestSchema.parse({ event_id: 'evt_1' })).toEqual({ event_id: 'evt_1' });
    expect(WebhookReplayRequestSchema.safeParse({}).success).toBe(false);
    expect(WebhookReplayRequestSchema.safeParse({ event_id: 'job_1' }).success).toBe(false);
    expect(WebhookReplayRequestSchema.safeParse({ event_id: 'evt_1', force: true }).success).toBe(false);
  });
  it('answers queued', () => {
    expect(WebhookReplayResponseSchema.safeParse({ event_id: 'evt_1', status: 'queued' }).success).toBe(true);
    expect(WebhookReplayResponseSchema.safeParse({ event_id: 'evt_1', status: 'sent' }).success).toBe(false);
  });
});

describe('Service-Signature', () => {
  it('accepts t=<secs>,v1=<64 lowercase hex>', () => {
    expect(ServiceSignatureHeaderSchema.safeParse(`t=1790000000,v1=${'ab'.repeat(32)}`).success).toBe(true);
    expect(ServiceSignatureHeaderSchema.safeParse(`t=1790000000,v1=${'AB'.repeat(32)}`).success).toBe(false);
    expect(ServiceSignatureHeaderSchema.safeParse(`v1=${'ab'.repeat(32)},t=1`).success).toBe(false);
  });
  it('retries over 24 hours in seven steps', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toHaveLength(7);
    expect(WEBHOOK_RETRY_SCHEDULE_MS[0]).toBe(60_000);
    expect(WEBHOOK_RETRY_SCHEDULE_MS[6]).toBe(86_400_000);
  });
});
