/** Pieces shared by the Kafka message schemas. */
import { z } from 'zod';

/** Version field of every message value; bump with a new schema, never change v1 in place. */
export const MessageVersionSchema = z.literal(1);

/** An absolute deadline as epoch milliseconds. */
export const EpochMsSchema = z.number().int().positive();

/** How one provider's part of a search ended. */
export const FetchOutcomeSchema = z.enum(['ok', 'provider_error', 'provider_timeout']);
export type FetchOutcome = z.infer<typeof FetchOutcomeSchema>;
