import { requireProjectRole } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { meanInterval } from '../insight/intervals';
import { outcomeOf, winRate, type WinRate } from '../insight/win-rate';
import { estimatePpiMean } from '../stats/ppi';
import { projectSettings } from '../trajectories/queries/projects';
import { canaryDecision } from './canary-decision';
import type { CanaryComparison, CanaryFigure, CanaryRule } from './canary-schemas';
import { campaignVotes, runComparisonFacts, sharedTasks, trajectorySignalsOf } from './queries/canary';

type Judged = { judge: string; score: number | null; label: string | null };

/** A judge's verdict as a number: its score, else a pass/fail label as 1/0 (null when it has neither). */
export function judgeValue(j: Pick<Judged, 'score' | 'label'>): number | null {
  if (j.score !== null && Number.isFinite(j.score)) return j.score;
  const label = j.label?.trim().toLowerCase();
  if (label && ['pass', 'passed', 'true', 'yes', 'correct', 'success', 'resolved'].includes(label)) return 1;
  if (label && ['fail', 'failed', 'false', 'no', 'incorrect', 'failure', 'unresolved'].includes(label)) return 0;
  return null;
}

/**
 * The judge's outcome on a task, new vs parent, in [0, 1]: 1 when new's mean judge score (over the
 * judges that scored both sides) is higher, 0 when lower, 0.5 when equal; null when no judge scored both.
 */
export function judgeOutcome(child: readonly Judged[], parent: readonly Judged[]): number | null {
  const parentBy = new Map<string, number[]>();
  for (const j of parent) {
    const v = judgeValue(j);
    if (v !== null) parentBy.set(j.judge, [...(parentBy.get(j.judge) ?? []), v]);
  }
  let c = 0;
  let p = 0;
  let shared = 0;
  const childBy = new Map<string, number[]>();
  for (const j of child) {
    const v = judgeValue(j);
    if (v !== null) childBy.set(j.judge, [...(childBy.get(j.judge) ?? []), v]);
  }
  for (const [judge, values] of childBy) {
    const other = parentBy.get(judge);
    if (!other) continue;
    shared++;
    c += values.reduce((a, b) => a + b, 0) / values.length;
    p += other.reduce((a, b) => a + b, 0) / other.length;
  }
  if (shared === 0) return null;
  return c > p ? 1 : c < p ? 0 : 0.5;
}

/** One task both sides ran, as the figures need it. */
export interface CanaryTask {
  taskId: string;
  childReward: number | null;
  parentReward: number | null;
  /** the judge's outcome for new (1 win, 0.5 tie, 0 loss); null when no judge scored both sides */
  judge: number | null;
}

/** One current human vote, already read as new vs parent. */
export type CanaryVote = { taskId: string; outcome: 'new' | 'parent' | 'tie' };

function fromWinRate(w: WinRate): CanaryFigure {
  return { estimate: w.rate, ci: w.ci, n: w.n };
}

/**
 * The comparison's figures (pure): the reward difference (mean of new - parent over the tasks with
 * both rewards, t interval), the judge win rate (tasks with a judge outcome; ties half; Wilson),
 * the human blind win rate (every current vote; ties half; Wilson) and the PPI win rate over the
 * judged tasks: the judge's outcome as the prediction, the mean human vote of the task (1 new wins,
 * 0.5 tie, 0 parent wins) as its label (lib/stats/ppi.ts, PPI++ with a tuned lambda).
 */
export function canaryFigures(tasks: readonly CanaryTask[], votes: readonly CanaryVote[]) {
  let n = 0;
  let sum = 0;
  let sumSquares = 0;
  for (const t of tasks) {
    if (t.childReward === null || t.parentReward === null) continue;
    const d = t.childReward - t.parentReward;
    n++;
    sum += d;
    sumSquares += d * d;
  }
  const reward = meanInterval(n, sum, sumSquares);
  const judged = tasks.filter((t) => t.judge !== null);
  const judge = winRate({
    bWins: judged.filter((t) => t.judge === 1).length,
    aWins: judged.filter((t) => t.judge === 0).length,
    ties: judged.filter((t) => t.judge === 0.5).length,
  });
  const human = winRate({
    bWins: votes.filter((v) => v.outcome === 'new').length,
    aWins: votes.filter((v) => v.outcome === 'parent').length,
    ties: votes.filter((v) => v.outcome === 'tie').length,
  });
  const labels = new Map<string, number[]>();
  for (const v of votes) labels.set(v.taskId, [...(labels.get(v.taskId) ?? []), v.outcome === 'new' ? 1 : v.outcome === 'tie' ? 0.5 : 0]);
  const ppi = estimatePpiMean(
    judged.map((t) => {
      const ys = labels.get(t.taskId);
      return { prediction: t.judge!, label: ys ? ys.reduce((a, b) => a + b, 0) / ys.length : null };
    }),
  );
  return {
    rewardDifference: { estimate: reward.mean, ci: reward.ci, n: reward.n },
    judgeWinRate: fromWinRate(judge),
    humanWinRate: fromWinRate(human),
    ppiWinRate: {
      estimate: ppi.ppi?.estimate ?? null,
      ci: ppi.ppi ? ([ppi.ppi.low, ppi.ppi.high] as [number, number]) : null,
      n: ppi.labeled,
      population: judged.length,
    },
  };
}

/** What a comparison names besides its figures: the run, its project, checkpoint, parent and canary campaign. */
export type CanaryComparisonFacts = Pick<CanaryComparison, 'runId' | 'project' | 'child' | 'parent' | 'campaign'>;

/** A current vote of the canary campaign (side A's policy, the preference, both bad) read as new vs parent. */
export function voteOfChild(v: { taskId: string; policyA: string; preference: number; bothBad: boolean }, childId: string): CanaryVote {
  const o = outcomeOf(v.preference, v.bothBad);
  const aIsNew = v.policyA === childId;
  return { taskId: v.taskId, outcome: o === 'tie' ? 'tie' : (o === 'a') === aIsNew ? 'new' : 'parent' };
}

/**
 * A comparison (pure): the figures of its shared tasks and votes (canaryFigures) and the decision
 * the project's rule gives (lib/training/canary-decision.ts). Shared by the per-run view and the
 * batched one (view-canary-comparisons.ts), so both give the same answer.
 */
export function canaryComparisonOf(
  facts: CanaryComparisonFacts,
  rule: CanaryRule,
  tasks: readonly CanaryTask[],
  votes: readonly CanaryVote[],
): CanaryComparison {
  const figures = canaryFigures(tasks, votes);
  const chosen = rule.figure === 'human' ? figures.humanWinRate : rule.figure === 'judge' ? figures.judgeWinRate : figures.ppiWinRate;
  const have = rule.figure === 'judge' ? figures.judgeWinRate.n : votes.length;
  return {
    ...facts,
    tasks: tasks.length,
    ...figures,
    decision: canaryDecision({ estimate: chosen.estimate, ci: chosen.ci, n: chosen.n }, rule, have),
  };
}

/**
 * The canary comparison of a training run: its checkpoint against its parent on the tasks both
 * ran, each figure with its 95% interval and n (canaryFigures), and the decision the project's
 * rule gives (lib/training/canary-decision.ts). Project members (reviewers and leads) may read it;
 * NOT_FOUND for a run they do not reach. The hill-climb page reads many at once with
 * viewCanaryComparisons (the same figures).
 */
export async function viewCanaryComparison(user: SessionUser, runId: string): Promise<CanaryComparison> {
  const facts = await runComparisonFacts(runId);
  requireProjectRole(user.access, facts?.projectId, 'reviewer', 'training run');
  if (!facts) throw new AppError('NOT_FOUND', 'No such training run');
  const rule = (await projectSettings(facts.projectId)).canaryRule;
  const child = facts.checkpoint;
  const parent = child?.parent ?? null;

  let tasks: CanaryTask[] = [];
  let votes: CanaryVote[] = [];
  if (child && parent) {
    const shared = await sharedTasks(child.id, parent.id);
    const signals = new Map((await trajectorySignalsOf(shared.flatMap((t) => [t.child, t.parent]))).map((s) => [s.id, s]));
    tasks = shared.map((t) => {
      const c = signals.get(t.child);
      const p = signals.get(t.parent);
      return {
        taskId: t.taskId,
        childReward: c?.verifierReward ?? null,
        parentReward: p?.verifierReward ?? null,
        judge: judgeOutcome(c?.judgeScores ?? [], p?.judgeScores ?? []),
      };
    });
    if (facts.campaign) votes = (await campaignVotes(facts.campaign.id)).map((v) => voteOfChild(v, child.id));
  }
  return canaryComparisonOf(
    {
      runId: facts.id,
      project: facts.project.slug,
      child: child ? { policyId: child.id, name: child.name } : null,
      parent: parent ? { policyId: parent.id, name: parent.name } : null,
      campaign: facts.campaign,
    },
    rule,
    tasks,
    votes,
  );
}
