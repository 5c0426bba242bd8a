import type { RubricDefinition } from '../review/rubric';

/**
 * What the agreement dashboard needs of one campaign, as the database hands it over (current
 * revisions only). Everything in lib/agreement is a pure function of this.
 */
export interface AgreementItem {
  id: string;
  trajectoryId: string;
  trajectoryBId: string | null;
  taskName: string;
  isGold: boolean;
  /** the verifier's reward of trajectory A (and B, pairwise) */
  reward: number | null;
  rewardB: number | null;
  /** LLM-judge scores of trajectory A */
  judges: { judge: string; score: number | null; label: string | null }[];
  /** the current adjudication, if a lead settled the item */
  adjudicated: boolean;
}

export interface AgreementReview {
  itemId: string;
  reviewerId: string;
  reviewerName: string;
  answers: Record<string, unknown>;
  /** 0..1 share of the video watched (recomputed by the server on submit) */
  coverage: number | null;
  durationSec: number | null;
  goldScore: number | null;
  submittedAt: Date;
}

export interface AgreementComparison {
  itemId: string;
  reviewerId: string;
  reviewerName: string;
  /** -2 A much better .. +2 B much better */
  preference: number;
  bothBad: boolean;
  /** per-side criteria verdicts, A/B un-randomised */
  criteria: { a: Record<string, string>; b: Record<string, string> };
  submittedAt: Date;
}

export interface CampaignAgreementData {
  id: string;
  name: string;
  mode: 'single' | 'pairwise';
  overlap: number;
  rubric: RubricDefinition;
  items: AgreementItem[];
  reviews: AgreementReview[];
  comparisons: AgreementComparison[];
}
