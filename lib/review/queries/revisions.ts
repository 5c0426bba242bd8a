import type { SqlRun } from '../../db/sql';

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
  const rule = revisionRule(label, '$1');
  const [row] = await run<{ next: number }>(`WITH retired AS (${rule.retire}) SELECT ${rule.next} AS next`, [ownerId]);
  return row!.next;
}

/**
 * The same rule as SQL, for a statement that also writes the new row (the submit's hot path:
 * one round trip): `retire`, a data-modifying query for a CTE that marks the chain's current row
 * not current (RETURNING its id), and `next`, the new row's revision. Both read the chain as the
 * statement found it (one snapshot per statement: the UPDATE runs once whether or not anything
 * reads it), so `next` counts the retired row too. `owner` is the parameter holding the chain's owner id.
 */
export function revisionRule(label: RevisionedLabel, owner: string): { retire: string; next: string } {
  const { table, owner: column } = revisioned[label];
  return {
    retire: `UPDATE "${table}" SET "isCurrent" = false WHERE "${column}" = ${owner} AND "isCurrent" RETURNING id`,
    next: `(SELECT (coalesce(max(revision), 0) + 1)::int FROM "${table}" WHERE "${column}" = ${owner})`,
  };
}
