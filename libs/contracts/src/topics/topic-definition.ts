import type { z } from 'zod';

export const SERVICE_NAMES = [
  'gateway',
  'search-orchestrator',
  'provider-fetcher',
  'dedupe',
  'billing',
  'webhook-dispatcher',
  'provider-sim',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface TopicDefinition<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  /** the Kafka topic name */
  readonly name: Name;
  /** schema of the JSON message value */
  readonly value: Schema;
  /** what the message key is */
  readonly key: string;
  /** extracts the message key from a value; never empty */
  readonly keyOf: (value: z.output<Schema>) => string;
  readonly partitions: number;
  readonly producers: readonly ServiceName[];
  readonly consumers: readonly ServiceName[];
  /** one line: what flows on the topic */
  readonly purpose: string;
  /** one line: why that key */
  readonly keyReason: string;
}

export function defineTopic<const Name extends string, Schema extends z.ZodType>(
  definition: TopicDefinition<Name, Schema>,
): TopicDefinition<Name, Schema> {
  return definition;
}

/** Partitions of every topic that carries search, account or job traffic. */
export const SEARCH_PARTITIONS = 12;
