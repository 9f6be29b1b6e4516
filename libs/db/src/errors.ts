import { Prisma } from './generated/prisma/client.js';

/**
 * True for a unique / primary-key violation (Prisma P2002): the "already processed" /
 * "already paid" signal of ProcessedMessage and PaidJob inserts. Inside an interactive
 * transaction the transaction is then aborted: let it roll back and handle the duplicate outside.
 */
export function isUniqueViolation(err: unknown): err is Prisma.PrismaClientKnownRequestError {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

/** True when a row required by the operation was not found (Prisma P2025). */
export function isRecordNotFound(err: unknown): err is Prisma.PrismaClientKnownRequestError {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2025';
}
