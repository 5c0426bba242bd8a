import type { SqlRun } from '../infra/sql';

/** The labels that are kept as revisions, and what one revision chain belongs to. */
const revisioned = {
  review: { table: 'review', owner: 'assignmentId' },
  comparison: { table: 'pairwise_comparison', owner: 'assignmentId' },
  adjudication: { table: 'adjudication', owner: 'campaignItemId' },
} as const;

export type RevisionedLabel = keyof typeof revisioned;

/**
 * The revision rule every label follows (a reviewer's review or comparison of an assignment, a
 * lead's adjudication of an item): a new submit is the next revision of its chain, and the
 * earlier ones stay, marked isCurrent=false. Call it inside the transaction that then creates
 * the row with the returned revision number (1 for the first).
 */
export async function nextRevision(run: SqlRun, label: RevisionedLabel, ownerId: string): Promise<number> {
  const { table, owner } = revisioned[label];
  // the UPDATE runs once whether or not the SELECT reads it; the SELECT sees the rows before it
  const [row] = await run<{ next: number }>(
    `WITH retired AS (UPDATE "${table}" SET "isCurrent" = false WHERE "${owner}" = $1 AND "isCurrent" RETURNING 1)
     SELECT (coalesce(max(revision), 0) + 1)::int AS next FROM "${table}" WHERE "${owner}" = $1`,
    [ownerId],
  );
  return row!.next;
}
