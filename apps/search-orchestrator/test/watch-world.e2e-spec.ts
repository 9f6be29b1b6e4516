import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSchema, WatchSchema, type Event, type Job } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  refreshUntil,
  signatureValid,
  wholeLedger,
  type WorldJob,
} from '@jobs/e2e-support';

/**
 * From an admin world change to a signed webhook: a company watch with a real HTTP receiver,
 * openings added, changed, closed and re-listed in the simulated market, and POST /admin/refresh
 * each time. The refresh planner asks the providers for the watched company, dedupe decides the
 * lifecycle change, the matcher makes the watch's event, billing charges job.opened, and the
 * webhook-dispatcher delivers it, signed.
 */
/** Up to two refresh passes (the one under way, then the next) on a loaded machine. */
const WAIT_MS = 150_000;

interface Delivery {
  headers: IncomingHttpHeaders;
  raw: string;
  event: Event;
}

let receiver: Server;
const deliveries: Delivery[] = [];
let hookUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ headers: req.headers, raw, event: EventSchema.parse(JSON.parse(raw)) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/watch-hooks`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

/** The first delivery of the watch's event matching `predicate`, after as many refresh passes as it takes. */
async function delivered(watchId: string, predicate: (event: Event) => boolean): Promise<Delivery> {
  return refreshUntil(
    () => deliveries.find((d) => d.event.watch_id === watchId && predicate(d.event)),
    `a delivery for ${watchId}`,
    WAIT_MS,
  );
}

const jobOf = (event: Event) => (event.data as { job: Job }).job;

describe('a company watch over the simulated market', () => {
  it(
    'delivers job.opened (charged, signed), hiring_started, ' +
      'job.updated, job.closed with hiring_stopped, and ' +
      'job.reposted',
    async () => {
      const { live_key: key, account_id: accountId } = await createAccount({ plan: 'pro', credits: 10 });
      const domain = await addWorldCompany();
      const res = await api('/v1/watches', { key, body: { type: 'company', domain, webhook_url: hookUrl } });
      expect(res.status).toBe(201);
      const watch = WatchSchema.parse(res.body);
      const opening: WorldJob = await addWorldJob({ providers: ['own_index', 'provider_a'], company_domain: domain });

      const opened = await delivered(watch.id, (e) => e.type === 'job.opened' && jobOf(e).title === opening.title);
      const job = jobOf(opened.event);
      expect(job).toMatchObject({ status: 'open', company: { domain } });
      const { secret } = (await admin(
        'GET',
        `/accounts/${accountId}/webhook-secret?url=${encodeURIComponent(hookUrl)}`,
      )) as { secret: string };
      expect(signatureValid(String(opened.headers['service-signature']), opened.raw, secret)).toBe(true);
      expect(signatureValid(String(opened.headers['service-signature']), `${opened.raw} `, secret)).toBe(false);
      expect(await wholeLedger(key, job.id)).toEqual([
        expect.objectContaining({
          credits: 1,
          reason: 'charged',
          request_id: opened.event.id,
          operation: 'POST /v1/watches',
        }),
      ]);
      const started = await delivered(watch.id, (e) => e.type === 'company.hiring_started');
      expect(started.event.data).toMatchObject({ company: { domain }, is_hiring: { value: true } });

      await admin('PATCH', `/world/jobs/${opening.worldJobId}`, {
        description: `${opening.title}: now with a longer description of the role.`,
        salary: { min: 70000, max: 80000, currency: 'GBP', period: 'year' },
      });
      const updated = await delivered(watch.id, (e) => e.type === 'job.updated' && jobOf(e).id === job.id);
      expect(jobOf(updated.event).salary).toMatchObject({ min: 70000, max: 80000 });

      await admin('POST', `/world/jobs/${opening.worldJobId}/close`, { reason: 'filled' });
      const closed = await delivered(watch.id, (e) => e.type === 'job.closed' && jobOf(e).id === job.id);
      // The reason is dedupe's to decide (the crawler's reason when it saw the closure, else unknown).
      expect(closed.event.data).toEqual({
        job: {
          id: job.id,
          title: job.title,
          company: job.company,
          status: 'closed',
          closed_reason: expect.any(String),
        },
      });
      const stopped = await delivered(watch.id, (e) => e.type === 'company.hiring_stopped');
      expect(stopped.event.data).toMatchObject({ is_hiring: { value: false } });

      await admin('POST', `/world/jobs/${opening.worldJobId}/repost`);
      const reposted = await delivered(watch.id, (e) => e.type === 'job.reposted' && jobOf(e).id === job.id);
      expect(reposted.event.data).toEqual({
        job: { id: job.id, title: job.title, company: job.company, status: 'open', repost_count: 1 },
      });

      // Only job.opened costs anything.
      expect((await wholeLedger(key)).map((l) => [l.job_id, l.credits])).toEqual([[job.id, 1]]);
      expect(
        new Set(
          deliveries
            .filter(
              (d) => d.event.watch_id === watch.id && d.event.type === 'job.opened' && jobOf(d.event).id === job.id,
            )
            .map((d) => d.event.id),
        ).size,
      ).toBe(1);
      expect((await api(`/v1/watches/${watch.id}`, { key, method: 'DELETE' })).status).toBe(204);
    },
    900_000,
  );
});
