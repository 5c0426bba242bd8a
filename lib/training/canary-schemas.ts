import { z } from 'zod';

/** A figure of the canary comparison: its estimate with a 95% interval and the count it rests on (null estimate: no data yet). */
export const canaryFigureSchema = z.object({
  estimate: z.number().nullable(),
  ci: z.tuple([z.number(), z.number()]).nullable(),
  n: z.number().int().min(0),
});
export type CanaryFigure = z.infer<typeof canaryFigureSchema>;

export const canaryRuleSchema = z.object({
  figure: z.enum(['human', 'ppi', 'judge']),
  above: z.number().min(0).max(1),
});
export type CanaryRule = z.infer<typeof canaryRuleSchema>;

export const canaryDecisionSchema = z.object({
  verdict: z.enum(['promote', 'reject', 'hold']),
  /** the rule's figure and threshold */
  rule: canaryRuleSchema,
  /** human votes that would settle it at the observed rate (power 0.8, alpha 0.05); null when it is settled or no count would */
  moreVotes: z.number().int().min(0).nullable(),
  /** one sentence for the lead, e.g. "Hold: the PPI win rate 0.56 [0.44, 0.67] (n = 20) includes 0.5; about 40 more votes would decide it." */
  sentence: z.string(),
});
export type CanaryDecision = z.infer<typeof canaryDecisionSchema>;

/** GET /api/v1/training-runs/:id/comparison: the new checkpoint against its parent. */
export const canaryComparisonSchema = z.object({
  runId: z.string(),
  project: z.string(),
  /** the new checkpoint and its parent (null: the run has no checkpoint yet) */
  child: z.object({ policyId: z.string(), name: z.string() }).nullable(),
  parent: z.object({ policyId: z.string(), name: z.string() }).nullable(),
  campaign: z.object({ id: z.string(), name: z.string(), status: z.string(), items: z.number().int() }).nullable(),
  /** tasks both sides ran (newest trajectory of each) */
  tasks: z.number().int().min(0),
  /** verifier reward, new minus parent, paired by task (mean with a t interval; n = tasks with both rewards) */
  rewardDifference: canaryFigureSchema,
  /** the judge's win rate of new over parent (per task: the mean judge score of each side compared; ties count half; Wilson interval) */
  judgeWinRate: canaryFigureSchema,
  /** the prediction-powered win rate: the judge's outcome per task corrected by the human votes (PPI++); n = tasks with a human vote */
  ppiWinRate: canaryFigureSchema.extend({ population: z.number().int().min(0) }),
  /** the human blind win rate of new over parent (current votes of the canary campaign; ties count half; Wilson interval) */
  humanWinRate: canaryFigureSchema,
  decision: canaryDecisionSchema,
});
export type CanaryComparison = z.infer<typeof canaryComparisonSchema>;
