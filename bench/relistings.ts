/**
 * Re-listings of every shape through the running stack, as a watching customer sees them: per
 * shape, BENCH_PER_SHAPE openings at companies a Pro account watches (one webhook receiver), each
 * announced by `job.opened`; then all are re-listed in the simulated market (new provider ids
 * everywhere), one POST /admin/refresh, and for each: did `job.reposted` arrive for the same
 * `job_` id, how long after the refresh call, was any second `job.opened` or charge made.
 *
 *   npm run bench -- relistings        # needs a running stack (npm run up)
 *
 * Env: BENCH_PER_SHAPE (20), BENCH_EVENT_TIMEOUT_MS (60,000), BASE_URL, ADMIN_URL, ADMIN_TOKEN.
 */
import { EventSchema, type Event } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  eventsAt as receivedEvents,
  jobOf,
  Receiver,
  wholeLedger,
  type ProviderSlug,
  type WorldJobInput,
} from '@jobs/e2e-support';
import { percentile } from './stack.js';

const perShape = Number(process.env['BENCH_PER_SHAPE'] ?? 20);
const timeoutMs = Number(process.env['BENCH_EVENT_TIMEOUT_MS'] ?? 60_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => process.stderr.write(`[bench:relistings] ${message}\n`);

const BARE: Partial<WorldJobInput> = {
  location: null,
  employment_type: null,
  seniority: null,
  salary: null,
  description: null,
};
const SHAPES: { name: string; providers: ProviderSlug[]; fields: Partial<WorldJobInput>; closeFirst?: boolean }[] = [
  { name: 'bare, own crawler + partner', providers: ['own_index', 'provider_a'], fields: BARE },
  { name: 'rich, own crawler + partner', providers: ['own_index', 'provider_a'], fields: {} },
  { name: 'bare, partners only', providers: ['provider_a', 'provider_c'], fields: BARE },
  { name: 'rich, partners only', providers: ['provider_b', 'provider_d', 'provider_f'], fields: {} },
  { name: 'bare, closed first', providers: ['own_index', 'provider_b'], fields: BARE, closeFirst: true },
  { name: 'rich, closed first', providers: ['own_index', 'provider_c', 'provider_e'], fields: {}, closeFirst: true },
];

const receiver = new Receiver();
await receiver.start();
const eventsAt = (url: string): Event[] => receivedEvents(receiver, url);
const arrivalsAt = (url: string) =>
  receiver.at(url).map((a) => ({ at: a.at, event: EventSchema.parse(JSON.parse(a.raw)) }));

/** Refresh calls every 5 s until `done` holds for every item, or the timeout. */
async function refreshUntil<T>(items: T[], done: (item: T) => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let nextRefresh = 0;
  while (items.some((i) => !done(i)) && Date.now() < deadline) {
    if (Date.now() >= nextRefresh) {
      await admin('POST', '/refresh', undefined, 202);
      nextRefresh = Date.now() + 5_000;
    }
    await sleep(100);
  }
}

interface Row {
  shape: string;
  relisted: number;
  keptId: number;
  latencies: number[];
  extraOpened: number;
  extraCredits: number;
}
const rows: Row[] = [];
for (const shape of SHAPES) {
  log(`${shape.name}: ${perShape} openings ...`);
  const { live_key: key } = await createAccount({ plan: 'pro', credits: perShape * 2 });
  const url = receiver.endpoint();
  const openings = await Promise.all(
    Array.from({ length: perShape }, async () => {
      const domain = await addWorldCompany();
      const res = await api('/v1/watches', { key, body: { type: 'company', domain, webhook_url: url } });
      if (res.status !== 201) throw new Error(`watch: ${res.status} ${JSON.stringify(res.body)}`);
      return addWorldJob({ providers: shape.providers, company_domain: domain, ...shape.fields });
    }),
  );
  // a partner may show the title in its own casing: the opening's unique word finds it
  const titled = (e: Event, keyword: string) => jobOf(e).title.toLowerCase().includes(keyword);
  const openedOf = (keyword: string) => eventsAt(url).find((e) => e.type === 'job.opened' && titled(e, keyword));
  await refreshUntil(openings, (o) => openedOf(o.keyword) !== undefined);
  const jobIds = new Map(openings.map((o) => [o.keyword, openedOf(o.keyword) && jobOf(openedOf(o.keyword)!).id]));
  // every provider's listing merged before the re-listing
  await sleep(3_000);
  await admin('POST', '/refresh', undefined, 202);
  await sleep(3_000);
  if (shape.closeFirst) {
    await Promise.all(openings.map((o) => admin('POST', `/world/jobs/${o.worldJobId}/close`, { reason: 'filled' })));
    await refreshUntil(openings, (o) =>
      eventsAt(url).some((e) => e.type === 'job.closed' && jobOf(e).id === jobIds.get(o.keyword)),
    );
  }
  await Promise.all(openings.map((o) => admin('POST', `/world/jobs/${o.worldJobId}/repost`)));
  const refreshAt = Date.now();
  const repostOf = (keyword: string) =>
    arrivalsAt(url).find((a) => a.event.type === 'job.reposted' && titled(a.event, keyword));
  await refreshUntil(openings, (o) => repostOf(o.keyword) !== undefined);
  // a late second job.opened would show within a few more passes
  await admin('POST', '/refresh', undefined, 202);
  await sleep(5_000);
  const reposts = openings.map((o) => repostOf(o.keyword));
  const charges = (await wholeLedger(key)).filter((l) => l.credits !== 0);
  rows.push({
    shape: shape.name,
    relisted: reposts.filter(Boolean).length,
    keptId: openings.filter((o, i) => reposts[i] && jobOf(reposts[i]!.event).id === jobIds.get(o.keyword)).length,
    latencies: reposts.flatMap((r) => (r ? [r.at - refreshAt] : [])).sort((a, b) => a - b),
    extraOpened: eventsAt(url).filter((e) => e.type === 'job.opened').length - openings.length,
    extraCredits: charges.reduce((sum, l) => sum + l.credits, 0) - openings.length,
  });
}
await receiver.stop();

console.log('\n## Re-listings\n');
console.log(
  '| shape | re-listed | same id | job.reposted p50 / p95 after the refresh call | extra job.opened | extra credits |',
);
console.log('|---|---:|---:|---|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.shape} | ${r.relisted}/${perShape} | ${r.keptId}/${perShape} | ` +
      `${(percentile(r.latencies, 50) / 1000).toFixed(2)} s / ${(percentile(r.latencies, 95) / 1000).toFixed(2)} s | ` +
      `${r.extraOpened} | ${r.extraCredits} |`,
  );
const all = rows.flatMap((r) => r.latencies).sort((a, b) => a - b);
console.log(
  `\nAll shapes: ${rows.reduce((s, r) => s + r.keptId, 0)}/${rows.length * perShape} kept their id; ` +
    `job.reposted p95 ${(percentile(all, 95) / 1000).toFixed(2)} s after the refresh call.`,
);
