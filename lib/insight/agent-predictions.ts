import { reviewVerdict } from './review-verdict';

/** The prefix of an agent reviewer's judge name beside the LLM judges (lib/review/agent-reviewer.ts agentSource). */
export const AGENT_SOURCE_PREFIX = 'agent:';

/** One current agent review of a single-item campaign's trajectory, as the estimate rows read it. */
export interface AgentReviewInput {
  trajectoryId: string;
  model: string;
  /** its answer to its rubric's criteria question ({criterionKey: 'pass' | 'fail'}; null: the rubric has none) */
  criteria: unknown;
}

/**
 * Agent reviews as judge predictions for the prediction-powered estimates (lib/insight/estimates.ts):
 * per trajectory and model, a judge named `agent:<model>` whose score is the share of that model's
 * current reviews of the trajectory that pass it (the human verdict rule, lib/insight/review-verdict.ts:
 * a failed criterion fails, a passed one with none failed passes; a review with no verdict
 * predicts nothing). Agent reviews never count as human labels; here they are only predictors,
 * beside the LLM judges' scores. Pure.
 */
export function agentJudgeScores(reviews: readonly AgentReviewInput[]): Map<string, { judge: string; score: number; label: null }[]> {
  const votes = new Map<string, Map<string, { pass: number; n: number }>>();
  for (const r of reviews) {
    const verdict = reviewVerdict({ criteria: r.criteria }, 'criteria');
    if (verdict === null) continue;
    const byModel = votes.get(r.trajectoryId) ?? new Map<string, { pass: number; n: number }>();
    votes.set(r.trajectoryId, byModel);
    const v = byModel.get(r.model) ?? { pass: 0, n: 0 };
    byModel.set(r.model, v);
    v.n++;
    if (verdict === 'pass') v.pass++;
  }
  const out = new Map<string, { judge: string; score: number; label: null }[]>();
  for (const [trajectoryId, byModel] of votes)
    out.set(
      trajectoryId,
      [...byModel]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([model, v]) => ({ judge: `${AGENT_SOURCE_PREFIX}${model}`, score: v.pass / v.n, label: null })),
    );
  return out;
}
