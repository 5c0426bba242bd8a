import type { AgreementComparison, AgreementReview, CampaignAgreementData } from './campaign-data';

/** A current agent review as the agreement reads it (lib/review/queries/agent-reviews.ts currentAgentReviewsOf). */
export interface AgentRating {
  campaignItemId: string;
  model: string;
  /** single: the rubric's answers; pairwise: {preference, bothBad, rationale, criteria: {a, b}} (A/B un-randomised) */
  answers: unknown;
  submittedAt: Date;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const verdicts = (v: unknown): Record<string, string> =>
  isObject(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

/**
 * The campaign's agreement data with agent reviewers as extra raters (only when asked:
 * `includeAgents`; agreement is human-only otherwise, as agent reviews live apart, agent_review):
 * each agent model is one rater, `agent:<model>` (named so), with its latest current review of
 * each item (two tokens of one model on an item are one rater's single rating, the later).
 * Agents have no watch coverage, time or gold score. Items outside the data are left out. Pure.
 */
export function withAgentRaters(data: CampaignAgreementData, agents: readonly AgentRating[]): CampaignAgreementData {
  const items = new Set(data.items.map((i) => i.id));
  const latest = new Map<string, AgentRating>();
  for (const a of agents) {
    if (!items.has(a.campaignItemId)) continue;
    const key = `${a.campaignItemId}\u0000${a.model}`;
    const seen = latest.get(key);
    if (!seen || seen.submittedAt < a.submittedAt) latest.set(key, a);
  }
  const reviews: AgreementReview[] = [];
  const comparisons: AgreementComparison[] = [];
  for (const a of latest.values()) {
    const rater = `agent:${a.model}`;
    if (!isObject(a.answers)) continue;
    if (data.mode === 'pairwise') {
      if (typeof a.answers.preference !== 'number') continue;
      const criteria = isObject(a.answers.criteria) ? a.answers.criteria : {};
      comparisons.push({
        itemId: a.campaignItemId,
        reviewerId: rater,
        reviewerName: rater,
        preference: a.answers.preference,
        bothBad: a.answers.bothBad === true,
        criteria: { a: verdicts(criteria.a), b: verdicts(criteria.b) },
        submittedAt: a.submittedAt,
      });
    } else {
      reviews.push({
        itemId: a.campaignItemId,
        reviewerId: rater,
        reviewerName: rater,
        answers: a.answers,
        coverage: null,
        durationSec: null,
        goldScore: null,
        submittedAt: a.submittedAt,
      });
    }
  }
  return { ...data, reviews: [...data.reviews, ...reviews], comparisons: [...data.comparisons, ...comparisons] };
}
