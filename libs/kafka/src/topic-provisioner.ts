import type { Admin } from 'kafkajs';
import type { Logger } from '@jobs/observability';
import type { TopicSpec } from './topic.js';

export interface ProvisionOptions {
  replicationFactor?: number;
  logger?: Logger;
}

/**
 * Makes the broker match the declared topology: creates missing topics and raises partition
 * counts that are lower than declared (Kafka cannot lower them). Safe when several services
 * start at once: "already exists" is success.
 */
export async function provisionTopics(
  admin: Admin,
  topics: readonly TopicSpec[],
  options: ProvisionOptions = {},
): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.name));
  if (missing.length > 0) {
    await admin
      .createTopics({
        waitForLeaders: true,
        topics: missing.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          replicationFactor: options.replicationFactor ?? 1,
        })),
      })
      .catch((error: unknown) => {
        if (!String((error as Error).message ?? error).includes('already exists')) throw error;
      });
    options.logger?.info({ topics: missing.map((t) => t.name) }, 'kafka topics created');
  }
  await waitUntilServed(admin, topics);
  const present = topics.filter((t) => existing.has(t.name));
  if (present.length === 0) return;
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: present.map((t) => t.name) });
  const grow = present.flatMap((t) => {
    const current = metadata.find((m) => m.name === t.name)?.partitions.length ?? 0;
    return current < t.partitions ? [{ topic: t.name, count: t.partitions }] : [];
  });
  if (grow.length > 0) {
    await admin.createPartitions({ topicPartitions: grow });
    options.logger?.info({ topics: grow }, 'kafka partitions raised');
  }
}

/**
 * Another service may have just created a topic: wait until the broker serves metadata (and a
 * leader) for every declared topic before anyone subscribes or publishes.
 */
async function waitUntilServed(admin: Admin, topics: readonly TopicSpec[], timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.name) });
      if (metadata.every((m) => m.partitions.length > 0 && m.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error('topics not served by the broker in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
