import type { PrismaService } from '@jobs/db';

/** A Pro account with `credits` left, as the specs on a throwaway database need one. */
export async function createAccount(prisma: PrismaService, id: string, credits: number): Promise<string> {
  await prisma.account.create({
    data: {
      id,
      plan: 'pro',
      creditsRemaining: credits,
      creditsResetAt: new Date(),
      rateLimitLimit: 100,
      rateLimitWindowSeconds: 60,
    },
  });
  return id;
}
