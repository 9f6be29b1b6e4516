// For integration specs: a database of its own on the real PostgreSQL server of DATABASE_URL,
// migrated exactly as `node scripts/db/migrate.mjs deploy` does, and dropped afterwards.
import { randomBytes } from 'node:crypto';
import { PrismaService } from '../prisma.service.js';
import { databaseUrlFromEnv, deployMigrations, dropDatabase } from '../../migrator.mjs';

export interface ThrowawayDatabase {
  url: string;
  prisma: PrismaService;
  drop(): Promise<void>;
}

export async function throwawayDatabase(purpose: string): Promise<ThrowawayDatabase> {
  const u = new URL(databaseUrlFromEnv());
  u.pathname = `/jobs_test_${purpose}_${randomBytes(5).toString('hex')}`;
  const url = u.toString();
  await deployMigrations({ databaseUrl: url });
  const prisma = new PrismaService(url, { poolSize: 4 });
  await prisma.$connect();
  return {
    url,
    prisma,
    async drop() {
      await prisma.$disconnect();
      await dropDatabase(url);
    },
  };
}
