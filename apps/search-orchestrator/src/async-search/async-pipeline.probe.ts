import { Injectable } from '@nestjs/common';
import { Topics, type ProviderSlug } from '@jobs/contracts';
import type { TopicSpec } from '@jobs/kafka';
import { Kafka, Partitioners, type PartitionMetadata } from 'kafkajs';
import { untraced } from '@jobs/observability';
import type { Tx } from './async-search.steps.js';

/**
 * Each hop of an async search's collection: the topic its messages wait on and the consumer
 * group that takes them (`<service>.async`, the groups of their own the fetcher, dedupe and the
 * orchestrator give async chunks; billing charges in its service group).
 */
const CHUNK_HOPS = [
  { topic: Topics.AsyncChunkRequested, group: 'provider-fetcher.async', key: 'search_id:provider' },
  { topic: Topics.AsyncChunkFetched, group: 'dedupe.async', key: 'search_id:provider' },
  { topic: Topics.AsyncChunkDeduplicated, group: 'search-orchestrator.async', key: 'search_id' },
] as const;
const CHARGE_HOPS = [
  { topic: Topics.AsyncChunkChargeRequested, group: 'billing', key: 'account_id' },
  { topic: Topics.AsyncChunkCharged, group: 'search-orchestrator.async', key: 'search_id' },
] as const;

export interface InFlightWork {
  searchId: string;
  accountId: string;
  /** providers with a chunk asked and not answered */
  providers: readonly ProviderSlug[];
  /** charge batches sent and not answered */
  charges: number;
}

/**
 * Whether an async search's unanswered chunks and charges may still be on their way: their
 * request still in this service's outbox, or a message not yet taken (or taken and not yet done:
 * its offset is committed only once handled) on a partition one of them went to, at any hop.
 * The stall sweeper asks a chunk again only when nothing holds it, so a chunk waiting behind a
 * busy dedupe is never asked twice. kafkajs's default partitioner (the one every producer here
 * uses) says which partition a key went to.
 */
@Injectable()
export class AsyncPipelineProbe {
  private readonly partitioner = Partitioners.DefaultPartitioner();

  constructor(private readonly kafka: Kafka) {}

  async holds(tx: Pick<Tx, '$queryRaw'>, work: InFlightWork): Promise<boolean> {
    const keys = new Map<TopicSpec, Set<string>>();
    const want = (topic: TopicSpec, key: string) => keys.set(topic, (keys.get(topic) ?? new Set()).add(key));
    for (const provider of work.providers) {
      for (const hop of CHUNK_HOPS)
        want(hop.topic, hop.key === 'search_id' ? work.searchId : `${work.searchId}:${provider}`);
    }
    if (work.charges > 0)
      for (const hop of CHARGE_HOPS) want(hop.topic, hop.key === 'account_id' ? work.accountId : work.searchId);
    if (keys.size === 0) return false;

    const staged = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox_messages
      WHERE topic = ANY(${[...keys.keys()].map((t) => t.name)}::text[]) AND key =
        ANY(${[...new Set([...keys.values()].flatMap((k) => [...k]))]}::text[])`;
    if ((staged[0]?.n ?? 0) > 0) return true;

    return untraced(async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      try {
        for (const hop of [...CHUNK_HOPS, ...CHARGE_HOPS]) {
          const hopKeys = keys.get(hop.topic);
          if (!hopKeys) continue;
          const partitions = new Set([...hopKeys].map((key) => this.partitionOf(hop.topic, key)));
          const [ends, [committed]] = await Promise.all([
            admin.fetchTopicOffsets(hop.topic.name),
            admin.fetchOffsets({ groupId: hop.group, topics: [hop.topic.name] }),
          ]);
          for (const partition of partitions) {
            const end = ends.find((p) => p.partition === partition);
            const done = committed?.partitions.find((p) => p.partition === partition);
            if (end && backlog(end, done?.offset) > 0) return true;
          }
        }
        return false;
      } finally {
        await admin.disconnect();
      }
    });
  }

  /** The partition kafkajs's default partitioner gives a key on a topic of `partitions` partitions. */
  partitionOf(topic: TopicSpec, key: string): number {
    const partitionMetadata: PartitionMetadata[] = Array.from({ length: topic.partitions }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      replicas: [0],
      isr: [0],
      partitionErrorCode: 0,
    }));
    return this.partitioner({ topic: topic.name, partitionMetadata, message: { key, value: null } });
  }
}

/** Messages on a partition its group has not finished: from its committed offset (or the log's start) to the end. */
export function backlog(end: { offset: string; low: string }, committed: string | undefined): number {
  const from = committed === undefined || Number(committed) < 0 ? Number(end.low) : Number(committed);
  return Math.max(0, Number(end.offset) - from);
}
