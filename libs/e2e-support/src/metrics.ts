import { parsePrometheusText, type Exposition } from './prometheus-text.js';
import { stack } from './stack.js';

export interface MetricsEndpoint {
  /** `dedupe`, or `dedupe#2` for a replica. */
  id: string;
  service: string;
  url: string;
}

/**
 * Every process's `/metrics`: each consumer's health port and provider-sim's port (SERVICE_PORTS,
 * set by scripts/stack.mjs), the gateway's on its admin port (its public port has none).
 */
export function metricsEndpoints(): MetricsEndpoint[] {
  const ports = process.env['SERVICE_PORTS'];
  if (!ports) throw new Error('SERVICE_PORTS is not set: run the e2e tests through scripts/stack.mjs');
  return ports.split(',').map((entry) => {
    const [id, port] = entry.split('=') as [string, string];
    const service = id.split('#')[0]!;
    const base = service === 'gateway' ? stack.adminUrl : `http://127.0.0.1:${port}`;
    return { id, service, url: `${base}/metrics` };
  });
}

export interface Scrape {
  status: number;
  contentType: string | null;
  exposition: Exposition;
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), exposition: res.status === 200 ? parsePrometheusText(text) : { samples: [], types: {} } };
}
