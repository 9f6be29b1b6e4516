/**
 * The Kafka traffic a stack's services produced, by topic: messages and bytes (keys, values and
 * headers), summed over every service's `kafka_producer_messages_total` and
 * `kafka_producer_bytes_total` (libs/kafka); and the requests their clients sent the brokers, by
 * API (`kafka_client_requests_total`: what the broker's CPU goes by). Read before and after some
 * work, the difference divided by the work's count is its traffic per operation.
 */
import { matching, parsePrometheusText } from '@jobs/e2e-support';
import { processEnv, servicePids } from './proc-cpu.js';

export interface Traffic {
  topics: Map<string, { messages: number; bytes: number }>;
  /** Requests sent to the brokers, by API (Produce, Fetch, OffsetCommit...). */
  requests: Map<string, number>;
}

/** Every service's metrics endpoint: the gateway's on its admin port, the others' on HEALTH_PORT. */
function metricsUrls(pidsFile: string): string[] {
  return Object.entries(servicePids(pidsFile))
    .filter(([id]) => !id.startsWith('provider-sim'))
    .map(([id, pid]) => {
      const env = processEnv(pid);
      const port = id.startsWith('gateway') ? env['ADMIN_PORT'] : env['HEALTH_PORT'];
      return `http://127.0.0.1:${port}/metrics`;
    });
}

export async function kafkaTraffic(pidsFile: string): Promise<Traffic> {
  const traffic: Traffic = { topics: new Map(), requests: new Map() };
  for (const url of metricsUrls(pidsFile)) {
    const exposition = parsePrometheusText(await (await fetch(url)).text());
    for (const [name, field] of [
      ['kafka_producer_messages_total', 'messages'],
      ['kafka_producer_bytes_total', 'bytes'],
    ] as const)
      for (const sample of matching(exposition, name)) {
        const topic = sample.labels['topic'] ?? '?';
        const entry = traffic.topics.get(topic) ?? { messages: 0, bytes: 0 };
        entry[field] += sample.value;
        traffic.topics.set(topic, entry);
      }
    for (const sample of matching(exposition, 'kafka_client_requests_total')) {
      const api = sample.labels['api'] ?? '?';
      traffic.requests.set(api, (traffic.requests.get(api) ?? 0) + sample.value);
    }
  }
  return traffic;
}

/** `after - before`, per operation, topics with any traffic, most bytes first. */
export function trafficPer(before: Traffic, after: Traffic, operations: number): Array<[string, number, number]> {
  return [...after.topics]
    .map(([topic, a]): [string, number, number] => {
      const b = before.topics.get(topic) ?? { messages: 0, bytes: 0 };
      return [topic, (a.messages - b.messages) / operations, (a.bytes - b.bytes) / operations];
    })
    .filter(([, messages]) => messages > 0)
    .sort((x, y) => y[2] - x[2]);
}

/** Requests to the brokers per operation, by API, the most first (APIs with none left out). */
export function requestsPer(before: Traffic, after: Traffic, operations: number): Array<[string, number]> {
  return [...after.requests]
    .map(([api, count]): [string, number] => [api, (count - (before.requests.get(api) ?? 0)) / operations])
    .filter(([, count]) => count > 0)
    .sort((x, y) => y[1] - x[1]);
}
