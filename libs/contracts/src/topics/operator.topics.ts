import { defineTopic } from './topic-definition.js';
import * as DeadLetter from '../messages/dead-letter.schema.js';

/** What operators inspect: messages parked after failing their schema or every retry. */
export const OPERATOR_TOPICS = {
  DeadLetter: defineTopic({
    name: 'dead-letter',
    value: DeadLetter.ValueSchema,
    key: 'original message key',
    keyOf: DeadLetter.keyOf,
    partitions: 3,
    producers: ['gateway', 'search-orchestrator', 'provider-fetcher', 'dedupe', 'billing', 'webhook-dispatcher'],
    consumers: [],
    purpose: 'Messages that failed their schema or kept failing, with the raw value and the error, for operators',
    keyReason: 'Keeps parked messages of one entity in their original order for inspection and replay',
  }),
} as const;
