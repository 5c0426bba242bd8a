import { inSqlTransaction, sql } from '../../db/sql';
import { insightIds, refreshTrajectoryInsight } from './insight-summary';

/**
 * The insight summaries of a submit's trajectories are refreshed after it commits, not inside
 * it (issue 17: the refresh and the statistics its triggers keep were a third of a review's CPU,
 * and held their hot rows until the submit's COMMIT). The submit's transaction adds a row per
 * trajectory to `insight_refresh` (QUEUE_INSIGHT_REFRESH), with the label, so a crash between
 * the commit and the refresh loses nothing; the process that took the submit then drains the
 * queue in the background (scheduleInsightRefresh), many submits' trajectories in one
 * transaction; and every reader of the summaries and of the statistics drains it first
 * (refreshQueuedInsight), so what a page or a command reads is exact: a recount of every label
 * committed before the read, as when the refresh ran inside the submit.
 *
 * A drain takes its queue rows with FOR UPDATE (a concurrent drain's rows are waited for, not
 * skipped: a reader returns only once every refresh queued before it has committed), then
 * refreshes their trajectories as the submits did (refreshTrajectoryInsight: each trajectory's
 * lock, then a recount of its current labels), and deletes the rows in the same transaction.
 */

/** Trajectories refreshed per transaction by a drain. */
export const REFRESH_BATCH = 200;

/**
 * A data-modifying CTE body that queues the trajectories in the text[] parameter `ids` for a
 * summary refresh: put it in the WITH list of the statement that writes their label.
 */
export const QUEUE_INSIGHT_REFRESH = (ids: string) =>
  `INSERT INTO insight_refresh ("trajectoryId") SELECT DISTINCT id FROM unnest(${ids}::text[]) AS id WHERE id IS NOT NULL`;

/**
 * Refreshes the summaries of every queued trajectory, in batches of REFRESH_BATCH (each its own
 * transaction), and returns once the queue is empty and no refresh queued before the call is
 * still running elsewhere. Returns how many queue rows it took.
 */
export async function refreshQueuedInsight(): Promise<number> {
  // the usual case, on every reader's path: nothing queued (a row a drain elsewhere is taking stays
  // visible until that drain commits, so this does not skip a refresh in flight)
  const [queued] = await sql<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM insight_refresh) AS any');
  if (!queued?.any) return 0;
  let taken = 0;
  let deadlocks = 0;
  for (;;) {
    const n = await inSqlTransaction(async (run) => {
      const rows = await run<{ trajectoryId: string }>(
        `DELETE FROM insight_refresh q
         WHERE q.id IN (SELECT id FROM insight_refresh ORDER BY id LIMIT $1 FOR UPDATE)
         RETURNING q."trajectoryId"`,
        [REFRESH_BATCH],
      );
      if (rows.length === 0) return 0;
      // the trajectories still there, kept there until this commits (a trajectory deleted meanwhile has no summary to write)
      const live = await run<{ id: string }>(`SELECT id FROM trajectory WHERE id = ANY($1::text[]) ORDER BY id FOR KEY SHARE`, [
        insightIds(rows.map((r) => r.trajectoryId)),
      ]);
      await refreshTrajectoryInsight(
        run,
        live.map((r) => r.id),
      );
      return rows.length;
    }).catch((error: unknown) => {
      // chosen as a deadlock's victim (a concurrent delete of a trajectory it refreshes): its rows are still queued, try again
      if ((error as { code?: string }).code === '40P01' && ++deadlocks <= 3) return -1;
      throw error;
    });
    if (n === 0) return taken;
    if (n > 0) taken += n;
  }
}

let draining: Promise<void> | null = null;
let again = false;

/**
 * Drains the queue in the background of this process (a submit calls it after its commit and
 * does not wait): one drain at a time, and submits that arrive while it runs are covered by one
 * more pass after it. A failed drain is logged; its rows stay queued for the next drain or read.
 */
export function scheduleInsightRefresh(): void {
  if (draining) {
    again = true;
    return;
  }
  draining = (async () => {
    do {
      again = false;
      try {
        await refreshQueuedInsight();
      } catch (error) {
        console.error('[insight] refreshing queued summaries failed (they stay queued):', (error as Error).message);
        again = false;
      }
    } while (again);
    draining = null;
  })();
}

/** The background drain this process is running, if any (tests wait for it). */
export function insightRefreshRunning(): Promise<void> {
  return draining ?? Promise.resolve();
}
