import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { writeAudit } from '../auth/queries/audit';
import type { SessionUser } from '../auth/session-user';
import { AppError, isAppError } from '../errors';
import { parseCriteria } from '../formats/criteria';
import { parseInput } from '../parse-input';
import { agentModel, agentOf, agentStepCounts, requireOwnAgentClaim } from './agent-reviewer';
import { evidenceNote } from './evidence';
import { findAgentReviewByKey, writeAgentReview, type AgentClaimRow } from './queries/agent-reviews';
import { answersSchema, rubricDefinition } from './rubric';
import { submitComparisonInput, unrandomise } from './submit-comparison';

export const submitAgentReviewInput = z.object({
  claimId: z.string().min(1),
  model: agentModel,
  /** single: the rubric's answers, as a human's; pairwise: {preference, bothBad?, rationale, criteria: {left, right}} (left: trajectoryIds[0]) */
  answers: z.unknown(),
  evidence: z.unknown().optional(),
  /** the agent's key for this submit (a retry sends the same one); none: every submit is new */
  idempotencyKey: z.string().min(8).max(100).optional(),
});
export type SubmitAgentReviewInput = z.input<typeof submitAgentReviewInput>;

/** An agent's evidence note: a step (of the first or, `side: 'b'`, the second trajectory in its order) and what it shows there. */
const agentEvidenceNote = z
  .object({
    stepIndex: z.number().int().nonnegative(),
    note: evidenceNote.shape.note,
    side: z.enum(['a', 'b']).optional(),
    wrongStep: z.boolean().default(false),
  })
  .strict();
const agentEvidence = z.array(agentEvidenceNote).max(200).default([]);

/** The human comparison's fields, as the pairwise answers of an agent. */
const pairwiseAnswers = submitComparisonInput.pick({ preference: true, bothBad: true, rationale: true, criteria: true }).strict();

/** A JSON pointer (RFC 6901) of a path. */
function pointer(path: (string | number)[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** A refusal pointing into `part` ('answers' or 'evidence') at `path`. */
function refuse(part: 'answers' | 'evidence', path: (string | number)[], what: string): never {
  const at = pointer(path);
  throw new AppError('BAD_INPUT', `${part === 'answers' ? '' : 'evidence '}${at || '/'}: ${what}`, { details: { field: at, in: part } });
}

/**
 * `parseInput` (the human submit's check, the same schema) with its dotted field turned into a
 * JSON pointer into `part`: the message and details.field say where and what.
 */
function parseAt<S extends z.ZodType>(schema: S, raw: unknown, part: 'answers' | 'evidence'): z.infer<S> {
  try {
    return parseInput(schema, raw, '');
  } catch (error) {
    if (!isAppError(error)) throw error;
    const field = (error.details as { field?: string } | undefined)?.field ?? '';
    const what = field ? error.message.slice(field.length + 2) : error.message.replace(/^input: /, '');
    return refuse(part, field ? field.split('.') : [], what);
  }
}

/** Keys of `value` (an object) that are not in `known`: the first is refused at `path`/key as `what`. */
function refuseUnknown(value: unknown, known: string[], path: string[], what: (key: string) => string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const extra = Object.keys(value).find((k) => !known.includes(k));
  if (extra !== undefined) refuse('answers', [...path, extra], what(extra));
}

/** Single-item answers, checked against the rubric and the task's criteria exactly as a human's (lib/review/rubric.ts answersSchema). */
function singleAnswers(claim: AgentClaimRow, raw: unknown): Record<string, unknown> {
  const rubric = rubricDefinition.parse(claim.campaign.rubricVersion.definition);
  const keys = parseCriteria(claim.item.trajectory.task.acceptanceCriteria).map((c) => c.key);
  const ids = rubric.questions.map((q) => q.id);
  refuseUnknown(raw, ids, [], (k) => `unknown question '${k}' (the rubric asks ${ids.join(', ')})`);
  for (const q of rubric.questions)
    if (q.type === 'criteria')
      refuseUnknown(
        (raw as Record<string, unknown> | null)?.[q.id],
        keys,
        [q.id],
        (k) => `unknown criterion '${k}' (the task's: ${keys.join(', ') || 'none'})`,
      );
  return parseAt(answersSchema(rubric, keys), raw, 'answers') as Record<string, unknown>;
}

/** Pairwise answers (a preference as the compare page sends it, left = the agent's first trajectory), stored in the item's A/B terms. */
function pairwise(claim: AgentClaimRow, raw: unknown) {
  const keys = parseCriteria(claim.item.trajectory.task.acceptanceCriteria).map((c) => c.key);
  const input = parseAt(pairwiseAnswers, raw, 'answers');
  for (const side of ['left', 'right'] as const) {
    refuseUnknown(
      input.criteria[side],
      keys,
      ['criteria', side],
      (k) => `unknown criterion '${k}' (the task's: ${keys.join(', ') || 'none'})`,
    );
    const missing = keys.filter((k) => !input.criteria[side][k]);
    if (missing.length) refuse('answers', ['criteria', side], `give a pass/fail for ${missing.join(', ')}`);
  }
  const mapped = unrandomise(input, claim.swapSides);
  return { preference: mapped.preference, bothBad: input.bothBad, rationale: input.rationale, criteria: mapped.criteria };
}

/** Evidence notes inside the claim's trajectories (steps in the agent's order), stored with sides in the item's A/B terms. */
function checkedEvidence(claim: AgentClaimRow, raw: unknown) {
  const notes = parseAt(agentEvidence, raw, 'evidence');
  const steps = agentStepCounts(claim);
  notes.forEach((n, i) => {
    if (n.side !== undefined && steps.length === 1)
      refuse('evidence', [i, 'side'], 'a single-item review has one trajectory; side is only for comparisons');
    const sides = n.side === undefined ? steps : [steps[n.side === 'a' ? 0 : 1]!];
    const fewest = Math.min(...sides);
    if (n.stepIndex >= fewest) refuse('evidence', [i, 'stepIndex'], `${n.stepIndex} is past the last step (the trajectory has ${fewest})`);
  });
  return notes.map((n) => (n.side && claim.swapSides ? { ...n, side: n.side === 'a' ? ('b' as const) : ('a' as const) } : n));
}

/**
 * Submits an agent reviewer's review of its claim: refused unless the claim is the caller's own
 * (same token, or user without one: else NOT_FOUND) and for the model named, while the campaign is
 * open (CONFLICT), and, for a first submit, while the claim is live (a lapsed one: claim again).
 * The answers are checked against the campaign's rubric exactly as a human's are (single: the
 * rubric's answers; pairwise: the compare page's preference, rationale and per-side criteria,
 * left being the agent's first trajectory), each refusal BAD_INPUT with a JSON pointer into the
 * answers (`/criteria/x: unknown criterion 'x'`, details.field `/criteria/x`). No coverage or
 * reading-time rule applies to agents. Idempotent by key: a retry answers the review the key made
 * (`created: false`; the key on another claim is a CONFLICT). A second submit on a claim with a
 * new key REVISES: a new revision is the current one, the earlier kept. It writes only
 * agent_review (and the claim's submit time): no human label, no slot of the overlap k, the item
 * never finalised, no label event. Audited `agent.review`.
 */
export async function submitAgentReview(
  user: SessionUser,
  raw: SubmitAgentReviewInput,
  now = new Date(),
): Promise<{ id: string; itemId: string; source: 'agent'; model: string; created: boolean; revision: number }> {
  const input = parseInput(submitAgentReviewInput, raw, '');
  const claim = await requireOwnAgentClaim(user, input.claimId, input.model);
  const answer = (r: { id: string; revision: number; created: boolean }) => ({
    id: r.id,
    itemId: claim.campaignItemId,
    source: 'agent' as const,
    model: claim.model,
    created: r.created,
    revision: r.revision,
  });
  const conflict = () => new AppError('CONFLICT', 'This submit key was already used for another claim: send a new one');
  if (input.idempotencyKey) {
    const done = await findAgentReviewByKey(input.idempotencyKey);
    if (done && done.claimId !== claim.id) throw conflict();
    if (done) return answer({ ...done, created: false });
  }
  if (claim.campaign.status !== 'open')
    throw new AppError('CONFLICT', 'This campaign is not open: reviews can no longer be submitted or revised');
  if (claim.submittedAt === null && claim.expiresAt <= now)
    throw new AppError('CONFLICT', 'This claim lapsed before a review came: claim the item again');
  const answers = claim.campaign.mode === 'pairwise' ? pairwise(claim, input.answers) : singleAnswers(claim, input.answers);
  const evidence = checkedEvidence(claim, input.evidence);
  const { tokenId } = agentOf(user);
  const written = await writeAgentReview(
    {
      claimId: claim.id,
      campaignId: claim.campaignId,
      campaignItemId: claim.campaignItemId,
      userId: user.id,
      tokenId,
      model: claim.model,
      rubricVersionId: claim.campaign.rubricVersion.id,
      answers,
      evidence,
      idempotencyKey: input.idempotencyKey ?? randomUUID(),
      now,
    },
    (tx, row) =>
      writeAudit(tx, {
        actorId: user.id,
        action: 'agent.review',
        targetType: 'agent_review',
        targetId: row.id,
        projectId: claim.campaign.projectId,
        data: { claimId: claim.id, campaignItemId: claim.campaignItemId, model: claim.model, tokenId, revision: row.revision },
      }),
  );
  if (written.claimId !== claim.id) throw conflict();
  return answer(written);
}
