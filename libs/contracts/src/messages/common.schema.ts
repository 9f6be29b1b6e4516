/** Pieces shared by the Kafka message schemas. */
import { z } from 'zod';
import { ProviderSlugSchema } from '../public/providers.schema.js';

/** Version field of every message value; bump with a new schema, never change v1 in place. */
export const MessageVersionSchema = z.literal(1);

/** An absolute deadline as epoch milliseconds. */
export const EpochMsSchema = z.number().int().positive();

/**
 * What the own index may answer from its store of canonical jobs for one account: jobs that at
 * least one provider routable on the account's plan has seen (operator.md: a Starter account
 * never receives a job known only through a partner).
 */
export const OwnIndexScopeSchema = z.strictObject({
  providers_routable: z.array(ProviderSlugSchema).min(1),
});
export type OwnIndexScope = z.infer<typeof OwnIndexScopeSchema>;

/** How one provider's part of a search ended. */
export const FetchOutcomeSchema = z.enum(['ok', 'provider_error', 'provider_timeout']);
export type FetchOutcome = z.infer<typeof FetchOutcomeSchema>;

/**
 * A provider's batch (search, refresh or async chunk) holds only that provider's records: every
 * record must name the fetched provider. For a schema's `superRefine`.
 */
export function refineRecordsOfProvider(
  value: { provider: string; records: readonly { provider: string }[] },
  ctx: z.RefinementCtx,
): void {
  value.records.forEach((record, index) => {
    if (record.provider !== value.provider)
      ctx.addIssue({ code: 'custom', path: ['records', index, 'provider'], message: 'record from another provider' });
  });
}

/**
 * What one part of a message split by size carries at most (a board's or a sweep's records, a
 * wave's de-duplicated jobs): the broker refuses a message over 1 MiB (`message.max.bytes`,
 * deploy/kafka), and a part's envelope and headers need room beside its items.
 */
export const MESSAGE_PART_MAX_BYTES = 640 * 1024;
