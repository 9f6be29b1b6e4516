import type { Counter, Histogram, ObservableGauge, ObservableResult } from '@opentelemetry/api';
import type { Consumer, Message } from 'kafkajs';
import { jobsMeter, secondsHistogram, secondsSince } from '@jobs/observability';

/** What became of one consumed message. */
export type ConsumeOutcome = 'ok' | 'retried' | 'dead_lettered' | 'passed_over';

interface KafkaInstruments {
  consumed: Counter;
  processSeconds: Histogram;
  lag: ObservableGauge;
  published: Counter;
  publishedBytes: Counter;
  produceRequests: Counter;
  clientRequests: Counter;
}

let instruments: KafkaInstruments | undefined;

/** Created on first use, after the SDK registered its meter provider (see `jobsMeter`). */
function kafkaInstruments(): KafkaInstruments {
  if (instruments) return instruments;
  const meter = jobsMeter();
  instruments = {
    consumed: meter.createCounter('kafka_consumer_messages_total', {
      description: 'Messages handled, by topic, consumer group and outcome (ok, retried, dead_lettered).',
    }),
    processSeconds: secondsHistogram(
      meter,
      'kafka_consumer_process_seconds',
      'Time to handle one message, by topic and consumer group.',
    ),
    lag: meter.createObservableGauge('kafka_consumer_lag', {
      description: 'Messages behind the high watermark after the last batch, by topic, partition and consumer group.',
    }),
    published: meter.createCounter('kafka_producer_messages_total', { description: 'Messages sent, by topic.' }),
    publishedBytes: meter.createCounter('kafka_producer_bytes_total', {
      description: "Bytes of the messages sent (keys, values and headers, before the broker's framing), by topic.",
    }),
    produceRequests: meter.createCounter('kafka_producer_requests_total', {
      description: "Produce requests sent (each may carry several topics' messages).",
    }),
    clientRequests: meter.createCounter('kafka_client_requests_total', {
      description:
        'Requests the Kafka clients sent to the brokers, by API (Produce, Fetch, OffsetCommit, Heartbeat...).',
    }),
  };
  return instruments;
}

export interface PartitionLagRow {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * The last known lag of each partition one group member reads. kafkajs reports it after every
 * batch (`offsetLag`: high watermark - 1 - last offset of the batch); a partition that got no
 * batch since keeps its last value, which is right: no batch means nothing new arrived.
 */
export class PartitionLag {
  private readonly lags = new Map<string, PartitionLagRow>();

  record(topic: string, partition: number, offsetLag: string): void {
    const lag = Number(offsetLag);
    if (!Number.isFinite(lag)) return;
    this.lags.set(`${topic}\u0000${partition}`, { topic, partition, lag: Math.max(0, lag) });
  }

  /** After a rebalance, forgets the partitions another member now reads (it reports them). */
  retain(assignment: Readonly<Record<string, readonly number[]>>): void {
    for (const [key, row] of this.lags) {
      if (!assignment[row.topic]?.includes(row.partition)) this.lags.delete(key);
    }
  }

  rows(): PartitionLagRow[] {
    return [...this.lags.values()];
  }
}

/** The metrics of one consumer group member: messages by outcome, handling time, lag. */
export class ConsumerMetrics {
  private readonly lag = new PartitionLag();
  private readonly observeLag = (result: ObservableResult): void => {
    for (const row of this.lag.rows())
      result.observe(row.lag, { topic: row.topic, partition: row.partition, group: this.group });
  };

  constructor(private readonly group: string) {}

  /** Follows the consumer's batches and rebalances; the gauge reads them at each scrape. */
  watch(consumer: Consumer): void {
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
      this.lag.record(payload.topic, payload.partition, payload.offsetLag),
    );
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.lag.retain(payload.memberAssignment));
    consumer.on(consumer.events.REQUEST, ({ payload }) => countClientRequest(payload.apiName));
    kafkaInstruments().lag.addCallback(this.observeLag);
  }

  unwatch(): void {
    kafkaInstruments().lag.removeCallback(this.observeLag);
  }

  /** One message done; `startedAt` is its `performance.now()` at dispatch. */
  handled(topic: string, outcome: ConsumeOutcome, startedAt: number): void {
    const { consumed, processSeconds } = kafkaInstruments();
    consumed.add(1, { topic, group: this.group, outcome });
    processSeconds.record(secondsSince(startedAt), { topic, group: this.group });
  }
}

/** Counts messages the broker acknowledged, and their bytes. */
export function countPublished(topic: string, messages: readonly Message[]): void {
  const { published, publishedBytes } = kafkaInstruments();
  published.add(messages.length, { topic });
  publishedBytes.add(
    messages.reduce((n, m) => n + sentBytes(m), 0),
    { topic },
  );
}

/**
 * A message's bytes as sent: key, value and headers (text counted as UTF-8). Not the producer's
 * `messageBytes`, the value alone, which bounds a coalesced request.
 */
function sentBytes({ key, value, headers }: Message): number {
  let bytes = sizeOf(key) + sizeOf(value);
  for (const [name, header] of Object.entries(headers ?? {}))
    bytes += name.length + (Array.isArray(header) ? header.reduce((n: number, h) => n + sizeOf(h), 0) : sizeOf(header));
  return bytes;
}

const sizeOf = (part: Buffer | string | null | undefined): number =>
  part === null || part === undefined ? 0 : typeof part === 'string' ? Buffer.byteLength(part) : part.length;

/** Counts produce requests the broker acknowledged (messages per request: published / requests). */
export function countProduceRequest(): void {
  kafkaInstruments().produceRequests.add(1);
}

/**
 * Counts one request a Kafka client sent, by API: what the broker's CPU goes by (a request costs
 * it about the same whatever it carries), so a benchmark can say how many an operation takes.
 */
export function countClientRequest(api: string): void {
  kafkaInstruments().clientRequests.add(1, { api });
}
