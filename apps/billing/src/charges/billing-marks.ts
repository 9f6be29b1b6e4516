import type { PrismaService } from '@jobs/db';

/**
 * Billing's idempotency marks (`processed_messages`, consumer group `billing`): each written in the
 * transaction of the change it names, so a mark present means that change committed.
 */
export const BILLING_MARKS = 'billing';

/** The mark of a billing query's charge (a job read, a company read). */
export const queryChargeMark = (queryId: string): string => `charge:${queryId}`;

/** The mark of an admin top-up. */
export const topUpMark = (queryId: string): string => `credits:${queryId}`;

/** Whether billing has written this mark: the change it names committed. */
export async function isMarked(prisma: Pick<PrismaService, 'processedMessage'>, key: string): Promise<boolean> {
  return (await prisma.processedMessage.count({ where: { consumerGroup: BILLING_MARKS, messageId: key } })) > 0;
}
