/**
 * Consumer lag of a running stack: messages of a topic its consumer group has not committed yet
 * (the topic's high watermarks minus the group's committed offsets, summed over partitions), read
 * with the Kafka admin client, for benchmarks that must tell a busy stack from one that is behind.
 */
import { Kafka, logLevel, type Admin } from 'kafkajs';

export interface LagProbe {
  /** The group's lag on the topic; a partition it never committed counts from the log start. */
  lag(groupId: string, topic: string): Promise<number>;
  close(): Promise<void>;
}

export async function openLagProbe(brokers: string[]): Promise<LagProbe> {
  const admin: Admin = new Kafka({ clientId: 'bench-lag', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  return {
    async lag(groupId, topic) {
      const [ends, [committed]] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        admin.fetchOffsets({ groupId, topics: [topic] }),
      ]);
      const at = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      return ends.reduce((sum, p) => {
        const done = at.get(p.partition) ?? -1;
        // the watermark and the commits are read apart: a commit may already be past the watermark read
        return sum + Math.max(0, Number(p.high) - (done < 0 ? Number(p.low) : done));
      }, 0);
    },
    close: () => admin.disconnect(),
  };
}
