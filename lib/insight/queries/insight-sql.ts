/**
 * SQL helpers shared by the insight queries. The pages read stored per-group counts
 * (insight_group_stat, insight_item_vote_stat, insight_frame_stat: migration
 * 20261202050510_insight_group_stats, kept by the write path's triggers) and `trajectory_insight`
 * (one row per labelled trajectory, kept by lib/insight/queries/insight-summary.ts at each submit),
 * never the reviews' answers: at 100k trajectories and 1M reviews a page reads a few thousand
 * stored rows instead of joining 100k trajectories, their tasks and summaries
 * (bench/pages.bench.ts, bench/insight.bench.ts).
 */

/** bigint / numeric / null from Postgres aggregates -> number. */
export function num(value: bigint | number | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number(value);
}
