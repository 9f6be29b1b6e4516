/**
 * What each gateway's admission looked like while a phase ran: its `gateway_admission_*` gauges,
 * scraped from the gateway's admin port (the public port + 1, as `npm run up` and `GATEWAYS=2`
 * place them) every second, summarised as min / median / max per gateway.
 */
import { scrape } from '@jobs/e2e-support';
import { median } from './stack.js';

const GAUGES = {
  limit: 'gateway_admission_limit',
  'in flight': 'gateway_admission_in_flight',
  queued: 'gateway_admission_queued',
  'unloaded p50 ms': 'gateway_admission_unloaded_latency_seconds',
  shared: 'gateway_admission_shared',
} as const;
type Gauge = keyof typeof GAUGES;

/** The admin `/metrics` URL of the gateway whose public base URL is `gateway`. */
export function adminMetricsUrl(gateway: string): string {
  const url = new URL(gateway);
  url.port = String(Number(url.port) + 1);
  url.pathname = '/metrics';
  return url.toString();
}

/** Samples the gauges of each gateway until the returned stop is called; stop gives one line per gateway. */
export function sampleAdmission(gateways: readonly string[], everyMs = 1000): () => Promise<string[]> {
  const seen = gateways.map(() => new Map<Gauge, number[]>());
  let stopped = false;
  const once = async () =>
    Promise.all(
      gateways.map(async (gateway, i) => {
        const { status, exposition } = await scrape(adminMetricsUrl(gateway)).catch(() => ({
          status: 0,
          exposition: { samples: [] },
        }));
        if (status !== 200) return;
        for (const [gauge, name] of Object.entries(GAUGES) as Array<[Gauge, string]>) {
          const sample = exposition.samples.find((s) => s.name === name && s.labels['pool'] === 'sync-search');
          if (!sample) continue;
          const value = gauge === 'unloaded p50 ms' ? sample.value * 1000 : sample.value;
          const values = seen[i]!.get(gauge);
          if (values) values.push(value);
          else seen[i]!.set(gauge, [value]);
        }
      }),
    );
  const loop = (async () => {
    while (!stopped) {
      await once();
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return gateways.map((gateway, i) => {
      const cells = [...seen[i]!].map(([gauge, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(0));
        return `${gauge} ${fmt(sorted[0]!)} / ${fmt(median(sorted))} / ${fmt(sorted.at(-1)!)}`;
      });
      return `${gateway} (min / median / max, every ${everyMs} ms): ${cells.join('; ') || 'no samples'}`;
    });
  };
}

/** Runs one measured phase while sampling the gateways' gauges: the phase's figures and a gauge line per gateway. */
export async function withAdmissionGauges<T>(
  gateways: readonly string[],
  run: () => Promise<T>,
): Promise<{ measured: T; gauges: string[] }> {
  const stopSampling = sampleAdmission(gateways);
  const measured = await run();
  return { measured, gauges: await stopSampling() };
}
