import { migrate } from './db/migrate';
import { backfillTrajectoryInsightOnce } from './insight/queries/insight-summary';

/**
 * Brings a database to this build: the migrations (lib/db/migrate.ts, infrastructure), then, once
 * per version of the insight rules, the insight summaries that are missing or stale
 * (lib/insight/queries/insight-summary.ts: computed in TypeScript, so no migration can write them).
 * Every process that migrates calls this one, so none forgets the derived data.
 */
export async function migrateDatabase(databaseUrl: string): Promise<{
  applied: string[];
  alreadyApplied: number;
  /** trajectories whose insight summary was refreshed */ insightRefreshed: number;
}> {
  const { applied, alreadyApplied, derived } = await migrate(databaseUrl, {
    derive: async (client) => {
      const hasInsight = (await client.query<{ t: string | null }>(`SELECT to_regclass('insight_backfill')::text AS t`)).rows[0]?.t;
      return hasInsight ? await backfillTrajectoryInsightOnce(client) : 0;
    },
  });
  return { applied, alreadyApplied, insightRefreshed: derived };
}
