import type { Prisma } from '@prisma/client';
import { inSqlTransaction, type SqlRun } from '../../db/sql';

/** What a progress save needs of its assignment (locked for the save), or null when there is none. */
export interface ProgressTarget {
  reviewerId: string;
  projectId: string;
  status: string;
  claimedAt: Date;
  readingWpm: number;
  progress: Prisma.JsonValue;
}

async function lockProgressTarget(run: SqlRun, assignmentId: string): Promise<ProgressTarget | null> {
  const [row] = await run<ProgressTarget>(
    `SELECT a."reviewerId", c."projectId", a.status::text AS status, a."claimedAt", c."readingWpm", a.progress
     FROM assignment a
     JOIN campaign_item ci ON ci.id = a."campaignItemId"
     JOIN campaign c ON c.id = ci."campaignId"
     WHERE a.id = $1
     FOR UPDATE OF a`,
    [assignmentId],
  );
  return row ?? null;
}

/**
 * Reads the assignment under a row lock, lets `decide` compute the new progress from it (null:
 * write nothing), and writes it, in one transaction: two saves of one assignment never lose each other's coverage.
 */
export async function updateProgress<T>(
  assignmentId: string,
  decide: (target: ProgressTarget | null) => Promise<{ progress: object | null; answer: T }>,
): Promise<T> {
  return inSqlTransaction(async (run) => {
    const target = await lockProgressTarget(run, assignmentId);
    const { progress, answer } = await decide(target);
    if (progress !== null) await run(`UPDATE assignment SET progress = $2::jsonb WHERE id = $1`, [assignmentId, JSON.stringify(progress)]);
    return answer;
  });
}
