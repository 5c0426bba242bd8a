import { z } from 'zod';
import { claimAgentItem } from '../../review/claim-agent-item';
import { listAgentReviews } from '../../review/list-agent-reviews';
import { submitAgentReview } from '../../review/submit-agent-review';
import { defineTool } from '../mcp-tool';

/**
 * An agent reviewer's loop (lib/review/claim-agent-item.ts, submit-agent-review.ts): claim an
 * item, read its blind transcript (read_transcript) and stills (get_still) with the claimId, submit.
 * Agent reviews live apart from the human ones: no human slot, never toward the overlap k.
 */

const model = z.string().min(1).max(100).describe('the model reviewing, e.g. claude-sonnet-4 (no spaces)');

export const claimNextItemTool = defineTool({
  name: 'claim_next_item',
  title: 'Claim the next item to review (as an agent)',
  description:
    "Claims the next item of an open campaign for you as an agent reviewer (or hands back your open claim). Answers the claimId, the blind trajectory ids (one, or two for a pairwise campaign: left then right), their step counts, the rubric and the task's acceptance criteria; {claim: null} when nothing is left for this model. Then read with read_transcript/get_still passing the claimId, and submit_review.",
  input: z.object({ campaignId: z.string().min(1).max(64), model }),
  kind: 'write',
  area: 'review',
  async run(input, { user, now }) {
    return { claim: await claimAgentItem(user, input, now()) };
  },
});

export const submitReviewTool = defineTool({
  name: 'submit_review',
  title: 'Submit a review (as an agent)',
  description:
    "Submits your agent review of a claimed item. answers: single-item campaigns, the rubric's answers keyed by question id (as a human's); pairwise, {preference, bothBad?, rationale, criteria: {left, right}} (left: the claim's first trajectory). evidence (optional): [{stepIndex, note, side?}]. A wrong answer comes back as an error naming where (a JSON pointer into answers) and what. idempotencyKey: send the same one on a retry.",
  input: z.object({
    claimId: z.string().min(1).max(64),
    model,
    answers: z.record(z.string(), z.unknown()).describe("the answers, checked against the claim's rubric"),
    evidence: z
      .array(z.object({ stepIndex: z.number().int().min(0), note: z.string().max(2000), side: z.enum(['a', 'b']).optional() }))
      .max(50)
      .optional(),
    idempotencyKey: z.string().min(8).max(100).optional(),
  }),
  kind: 'write',
  area: 'review',
  async run(input, { user, now }) {
    return { review: await submitAgentReview(user, input, now()) };
  },
});

export const listAgentReviewsTool = defineTool({
  name: 'list_agent_reviews',
  title: "List a campaign's agent reviews",
  description:
    "A campaign's current agent reviews, newest first (leads: every agent's; reviewers: their own agents'), each with the model, the answers and how much of the transcript it read. Paged: pass nextCursor as cursor.",
  input: z.object({
    campaignId: z.string().min(1).max(64),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(20).default(10),
  }),
  kind: 'read',
  area: 'review',
  async run(input, { user }) {
    const { reviews, nextCursor } = await listAgentReviews(user, input);
    const answers = (a: unknown) => {
      const text = JSON.stringify(a) ?? 'null';
      return text.length <= 1500 ? a : { clipped: `${text.slice(0, 1500)}…`, bytes: text.length };
    };
    return { reviews: reviews.map((r) => ({ ...r, answers: answers(r.answers) })), nextCursor };
  },
});
