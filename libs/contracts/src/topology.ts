/**
 * The one declared Kafka topology: every topic with its name, value schema, key, partitions,
 * producers and consumers. Topic names live here, each workflow's in topics/, and nowhere else
 * (never in env variables).
 *
 * The sync search is a coordinator pattern: the gateway asks, the orchestrator asks each wave of
 * partners in one fetch request (the own index beside it, straight to dedupe), the fetcher calls
 * them side by side and hands the whole wave to dedupe in one message, dedupe merges it in one
 * pass and answers once, the orchestrator gathers and sends the page to the gateway and its job ids
 * to billing side by side, and the gateway answers once billing's outcome is in. Few, larger
 * messages: every message costs a produce, a fetch and a commit.
 */
import type { z } from 'zod';
import { ASYNC_SEARCH_TOPICS } from './topics/async-search.topics.js';
import { OPERATOR_TOPICS } from './topics/operator.topics.js';
import { QUERY_TOPICS } from './topics/query.topics.js';
import { REFRESH_TOPICS } from './topics/refresh.topics.js';
import { SYNC_SEARCH_TOPICS } from './topics/sync-search.topics.js';
import type { ServiceName } from './topics/topic-definition.js';
import { EVENT_FEED_TOPICS, WATCH_CHARGE_TOPICS, WATCH_TOPICS } from './topics/watch.topics.js';

export { refreshTopicsOf } from './topics/refresh.topics.js';
export { SERVICE_NAMES, type ServiceName, type TopicDefinition } from './topics/topic-definition.js';

/**
 * Every topic, one workflow's topics beside each other (topics/*.topics.ts). The order of the
 * groups is the order of ALL_TOPICS and so of the topic table in docs/architecture.md.
 */
export const Topics = {
  ...SYNC_SEARCH_TOPICS,
  ...EVENT_FEED_TOPICS,
  ...QUERY_TOPICS,
  ...WATCH_TOPICS,
  ...REFRESH_TOPICS,
  ...WATCH_CHARGE_TOPICS,
  ...ASYNC_SEARCH_TOPICS,
  ...OPERATOR_TOPICS,
} as const;

export type Topics = typeof Topics;

export type TopicId = keyof Topics;
export type AnyTopic = Topics[TopicId];
export type TopicName = AnyTopic['name'];

/** The inferred value type of a topic: `MessageOf<typeof Topics.SearchRequested>`. */
export type MessageOf<T extends { readonly value: z.ZodType }> = z.output<T['value']>;

/** Every topic, in declaration order. */
export const ALL_TOPICS: readonly AnyTopic[] = Object.values(Topics);

/** The topic definition of a topic name, or undefined for a name that is not declared. */
export function topicByName(name: string): AnyTopic | undefined {
  return ALL_TOPICS.find((topic) => topic.name === name);
}

/** Markdown table of every topic, for docs/architecture.md (topology-docs.ts). */
export function renderTopicTable(): string {
  const list = (services: readonly ServiceName[]) => (services.length ? services.join(', ') : '(operators)');
  const escape = (text: string) => text.replaceAll('|', '\\|');
  const rows = ALL_TOPICS.map((topic) =>
    [
      `\`${topic.name}\``,
      list(topic.producers),
      list(topic.consumers),
      `\`${topic.key}\`: ${escape(topic.keyReason)}`,
      String(topic.partitions),
      escape(topic.purpose),
    ].join(' | '),
  );
  return [
    '| topic | producer(s) | consumer(s) | key | partitions | what flows |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
