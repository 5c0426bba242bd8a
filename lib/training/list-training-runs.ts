import { visibleProjectIds } from '../auth/project-access';
import { parseInput } from '../parse-input';
import { findProjectBySlug } from '../trajectories/find-project-by-slug';
import { labelSetSummaries, listTrainingRuns as listRuns } from './queries/training-runs';
import { sweepTrainingLeases } from './sweep-training-leases';
import { listTrainingRunsQuery, type ListTrainingRunsQuery, type TrainingRunView } from './training-run-schemas';
import { trainingRunView, type TrainingCaller } from './training-run-view';

/**
 * The runs of the projects the caller leads (admins: all; one project by its slug, else 404),
 * newest first, a page at a time (`nextCursor`), without their metric points. Expired leases
 * are swept first, so a dead agent's run shows queued (or failed) here.
 */
export async function listTrainingRuns(
  caller: TrainingCaller,
  raw: ListTrainingRunsQuery,
): Promise<{ runs: TrainingRunView[]; nextCursor: string | null }> {
  const query = parseInput(listTrainingRunsQuery, raw, 'query parameter');
  await sweepTrainingLeases();
  let projectIds = visibleProjectIds(caller.access, 'lead');
  if (query.project) projectIds = [(await findProjectBySlug(query.project, projectIds)).id];
  const rows = await listRuns({ projectIds, status: query.status, cursor: query.cursor, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const summaries = await labelSetSummaries(page.map((r) => r.id));
  return {
    runs: page.map((r) => trainingRunView(r, summaries.get(r.id))),
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}
