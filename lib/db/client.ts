import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import { env } from '../env';

/**
 * The Prisma client (query compiler + node-postgres driver adapter: no native engine).
 * Only lib/db/ imports this module (ESLint enforces it).
 */
const globalForDb = globalThis as unknown as { witnessDb?: { url: string; client: PrismaClient } };

export function db(): PrismaClient {
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start Witness with `witness start`, or set it to an external PostgreSQL.');
  const cached = globalForDb.witnessDb;
  if (cached && cached.url === url) return cached.client;
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }) });
  globalForDb.witnessDb = { url, client };
  return client;
}

export async function disconnectDb(): Promise<void> {
  const cached = globalForDb.witnessDb;
  globalForDb.witnessDb = undefined;
  await cached?.client.$disconnect();
}

export type Db = PrismaClient;
export type { Prisma } from '@prisma/client';
