import { z } from 'zod';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { addReading, agentReading } from './agent-reading';
import { agentOrder, agentStepCounts, requireOwnAgentClaim } from './agent-reviewer';
import { updateAgentReading } from './queries/agent-reviews';

export const recordAgentReadingInput = z
  .object({
    claimId: z.string().min(1),
    trajectoryId: z.string().min(1),
    /** the steps fetched, [first, last] inclusive (indexes from 0) */
    steps: z
      .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
      .refine(([first, last]) => first <= last, 'the first step comes before the last')
      .optional(),
    /** a still fetched: at a step, or a time of the video */
    still: z
      .object({ step: z.number().int().nonnegative().optional(), timeSec: z.number().nonnegative().finite().optional() })
      .strict()
      .optional(),
  })
  .refine((r) => r.steps !== undefined || r.still !== undefined, 'say what was fetched: steps, a still, or both');
export type RecordAgentReadingInput = z.input<typeof recordAgentReadingInput>;

/**
 * Records what an agent reviewer fetched on its claim (the MCP transcript and still tools call it):
 * a range of a trajectory's steps, merged with what it read before, and/or a still. The claim must
 * be the caller's (else NOT_FOUND), the trajectory one of the claim's (else NOT_FOUND), the steps
 * within it (BAD_INPUT). A record, never a gate: agents are exempt from the human reading-time and
 * coverage rules. Steps past the end are clamped to the trajectory's last step.
 */
export async function recordAgentReading(user: SessionUser, raw: RecordAgentReadingInput): Promise<void> {
  const input = parseInput(recordAgentReadingInput, raw, '');
  const claim = await requireOwnAgentClaim(user, input.claimId);
  const order = agentOrder(claim);
  const at = order.indexOf(input.trajectoryId);
  if (at < 0) throw new AppError('NOT_FOUND', 'No such trajectory on this claim');
  const count = agentStepCounts(claim)[at]!;
  let steps: [number, number] | undefined;
  if (input.steps) {
    const [first, last] = input.steps;
    if (first >= count)
      throw new AppError('BAD_INPUT', `steps: ${first} is past the last step (the trajectory has ${count})`, {
        details: { field: 'steps' },
      });
    steps = [first, Math.min(last, count - 1)];
  }
  if (input.still?.step !== undefined && input.still.step >= count)
    throw new AppError('BAD_INPUT', `still.step: ${input.still.step} is past the last step (the trajectory has ${count})`, {
      details: { field: 'still.step' },
    });
  const found = await updateAgentReading(claim.id, (current) =>
    addReading(agentReading.parse(current), input.trajectoryId, { steps, still: input.still }),
  );
  if (!found) throw new AppError('NOT_FOUND', 'No such agent claim');
}
