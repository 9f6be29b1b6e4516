/**
 * `dead-letter` (key: the original message key): any consumer -> operators.
 * A message that fails its schema (or keeps failing) is parked here with the raw value.
 * A message whose original key was null is keyed `<topic>/<partition>/<offset>`.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  topic: z.string().min(1),
  partition: z.number().int().min(0),
  /** Kafka offsets are 64-bit: kept as the decimal string kafkajs gives */
  offset: z.string().regex(/^\d+$/),
  key: z.string().nullable(),
  /** the raw value, as received */
  value: z.string(),
  error: z.string().min(1),
  failed_at: DateTimeSchema,
  consumer_group: z.string().min(1),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string =>
  value.key !== null && value.key !== '' ? value.key : `${value.topic}/${value.partition}/${value.offset}`;
