import type { RubricDefinition } from '../../review/rubric';
import type { AgreementItem, AgreementReview, CampaignAgreementData } from '../campaign-data';

export const fixtureRubric: RubricDefinition = {
  title: 'r',
  instructions: '',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Criteria', required: true },
    { id: 'quality', type: 'likert', prompt: 'Quality', points: 5, anchors: {}, required: true },
    {
      id: 'flags',
      type: 'multi',
      prompt: 'Flags',
      required: true,
      options: [
        { value: 'reward_hacking', label: 'Reward hacking' },
        { value: 'unsafe', label: 'Unsafe' },
      ],
    },
    { id: 'notes', type: 'text', prompt: 'Notes', required: false, maxLength: 4000 },
  ],
};

export function item(id: string, extra: Partial<AgreementItem> = {}): AgreementItem {
  return {
    id,
    trajectoryId: `t-${id}`,
    trajectoryBId: null,
    taskName: `task ${id}`,
    isGold: false,
    reward: null,
    rewardB: null,
    judges: [],
    adjudicated: false,
    ...extra,
  };
}

let clock = Date.UTC(2026, 0, 1);
export function review(
  itemId: string,
  reviewerId: string,
  answers: Record<string, unknown>,
  extra: Partial<AgreementReview> = {},
): AgreementReview {
  clock += 60_000;
  return {
    itemId,
    reviewerId,
    reviewerName: reviewerId.toUpperCase(),
    answers,
    coverage: 1,
    durationSec: 60,
    goldScore: null,
    submittedAt: new Date(clock),
    ...extra,
  };
}

export function campaign(
  items: AgreementItem[],
  reviews: AgreementReview[],
  rubric: RubricDefinition = fixtureRubric,
): CampaignAgreementData {
  return { id: 'c', name: 'C', mode: 'single', overlap: 3, rubric, items, reviews, comparisons: [] };
}
