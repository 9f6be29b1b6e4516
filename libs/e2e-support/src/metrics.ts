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
 * set by scripts/stack.mjs), each gateway's on its admin port (GATEWAY_ADMIN_PORTS; its public
 * port has none).
 */
export function metricsEndpoints(): MetricsEndpoint[] {
  const gatewayAdminPorts = new Map(portEntries('GATEWAY_ADMIN_PORTS'));
  return servicePorts().map(([id, port]) => {
    const service = id.split('#')[0]!;
    const adminPort = gatewayAdminPorts.get(id);
    const base =
      service !== 'gateway' ? `http://127.0.0.1:${port}` : adminPort ? `http://127.0.0.1:${adminPort}` : stack.adminUrl;
    return { id, service, url: `${base}/metrics` };
  });
}

/** Every gateway's public base URL (the replica phase runs two), the first one first. */
export function gatewayUrls(): string[] {
  const gateways = portEntries('SERVICE_PORTS').filter(([id]) => id.split('#')[0] === 'gateway');
  return gateways.length ? gateways.map(([, port]) => `http://127.0.0.1:${port}`) : [stack.baseUrl];
}

/** SERVICE_PORTS as `[id, port]` pairs: `dedupe=9103,gateway=8080,gateway#2=8082`. */
function servicePorts(): Array<[string, string]> {
  const entries = portEntries('SERVICE_PORTS');
  if (!entries.length) throw new Error('SERVICE_PORTS is not set: run the e2e tests through scripts/stack.mjs');
  return entries;
}

function portEntries(variable: string): Array<[string, string]> {
  return (process.env[variable] ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => entry.split('=') as [string, string]);
}

export interface Scrape {
  status: number;
  contentType: string | null;
  exposition: Exposition;
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    exposition: res.status === 200 ? parsePrometheusText(text) : { samples: [], types: {} },
  };
}
