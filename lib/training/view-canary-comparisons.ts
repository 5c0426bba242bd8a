import { requireProjectRole } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { parseInput } from '../parse-input';
import { projectSettings } from '../trajectories/queries/projects';
import { canaryComparisonSchema, type CanaryComparison } from './canary-schemas';
import { canaryComparisonOf, judgeOutcome, voteOfChild, type CanaryTask, type CanaryVote } from './view-canary-comparison';
import { comparisonFactsOfRuns, judgeScoresOf, sharedTasksOfRuns, votesOfRuns, type PairTaskRow } from './queries/canary-figures';

/** One run's comparison, or why it could not be computed (the run gone, figures that are not numbers). */
export type CheckpointComparison = { comparison: CanaryComparison; unavailable?: never } | { comparison?: never; unavailable: string };

const pairKey = (childId: string, parentId: string) => `${childId}\u0000${parentId}`;

/**
 * The canary comparisons of many runs of one project at once (the hill-climb page), keyed by run
 * id: the same figures and decisions as viewCanaryComparison gives run by run, from four batched
 * reads (queries/canary-figures.ts, three of them at once) whatever the number of runs, the project's settings and the
 * caller's access read once. A run whose comparison cannot be computed (gone, in another project,
 * or figures that do not fit the API's shape, e.g. a reward that is not a number) is answered as
 * `unavailable` with the reason, and the others still are. Project members (reviewers and leads);
 * NOT_FOUND for a project they do not reach.
 */
export async function viewCanaryComparisons(
  user: SessionUser,
  projectId: string,
  runIds: string[],
): Promise<Map<string, CheckpointComparison>> {
  requireProjectRole(user.access, projectId, 'reviewer', 'project');
  const ids = [...new Set(runIds)];
  const out = new Map<string, CheckpointComparison>();
  if (ids.length === 0) return out;
  const [facts, settings, shared, votes] = await Promise.all([
    comparisonFactsOfRuns(ids),
    projectSettings(projectId),
    sharedTasksOfRuns(projectId, ids),
    votesOfRuns(ids),
  ]);
  const factsOf = new Map(facts.filter((f) => f.projectId === projectId).map((f) => [f.id, f]));
  const scores = await judgeScoresOf(shared.flatMap((t) => [t.child, t.parent]));
  const scoresOf = new Map<string, { judge: string; score: number | null; label: string | null }[]>();
  for (const s of scores) {
    const list = scoresOf.get(s.trajectoryId);
    if (list) list.push(s);
    else scoresOf.set(s.trajectoryId, [s]);
  }
  const tasksOf = new Map<string, PairTaskRow[]>();
  for (const t of shared) {
    const key = pairKey(t.childId, t.parentId);
    const list = tasksOf.get(key);
    if (list) list.push(t);
    else tasksOf.set(key, [t]);
  }
  const votesOf = new Map<string, typeof votes>();
  for (const v of votes) {
    const list = votesOf.get(v.campaignId);
    if (list) list.push(v);
    else votesOf.set(v.campaignId, [v]);
  }

  for (const id of ids) {
    const f = factsOf.get(id);
    if (!f) {
      out.set(id, { unavailable: 'The training run is gone.' });
      continue;
    }
    try {
      let tasks: CanaryTask[] = [];
      let runVotes: CanaryVote[] = [];
      if (f.childId && f.parentId) {
        const childId = f.childId;
        tasks = (tasksOf.get(pairKey(childId, f.parentId)) ?? []).map((t) => ({
          taskId: t.taskId,
          childReward: t.childReward,
          parentReward: t.parentReward,
          judge: judgeOutcome(scoresOf.get(t.child) ?? [], scoresOf.get(t.parent) ?? []),
        }));
        if (f.campaignId) runVotes = (votesOf.get(f.campaignId) ?? []).map((v) => voteOfChild(v, childId));
      }
      const comparison = canaryComparisonOf(
        {
          runId: f.id,
          project: f.project,
          child: f.childId ? { policyId: f.childId, name: f.childName! } : null,
          parent: f.childId && f.parentId ? { policyId: f.parentId, name: f.parentName! } : null,
          campaign: f.campaignId
            ? { id: f.campaignId, name: f.campaignName!, status: f.campaignStatus!, items: f.campaignItems ?? 0 }
            : null,
        },
        settings.canaryRule,
        tasks,
        runVotes,
      );
      // figures that are not numbers (NaN from a stored reward, say) would break the row and the API's contract
      out.set(id, { comparison: parseInput(canaryComparisonSchema, comparison, `canary comparison of run ${id}`) });
    } catch (error) {
      out.set(id, { unavailable: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}
