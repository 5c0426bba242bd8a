import { z } from 'zod';
import { findAdjudicationTarget, writeAdjudication } from './queries/adjudications';
import { writeAudit } from '../auth/queries/audit';
import { AppError } from '../errors';
import { parseCriteria } from '../formats/criteria';
import { parseInput } from '../parse-input';
import { answersSchema, rubricDefinition } from '../review/rubric';

/** What a lead sends to settle an item: final answers (single) or a final preference (pairwise), and why. */
export const recordAdjudicationInput = z.object({
  campaignId: z.string().min(1),
  itemId: z.string().min(1),
  answers: z.record(z.string(), z.unknown()).default({}),
  preference: z.number().int().min(-2).max(2).nullable().default(null),
  bothBad: z.boolean().default(false),
  rationale: z.string().trim().min(10, 'give the rationale for the final label in a sentence or two (10+ characters)').max(5000),
  /**
   * The current revision the lead decided from (null: there was none). When given and another
   * decision landed meanwhile, the save is refused (CONFLICT) instead of silently replacing it.
   */
  basedOnRevision: z.number().int().min(1).nullable().optional(),
});
export type RecordAdjudicationInput = z.input<typeof recordAdjudicationInput>;

/**
 * Records a lead's final label for a campaign item, kept apart from the raw reviews. A changed
 * decision is a new revision, by the same rule as reviews (lib/review/queries/revisions.ts): earlier
 * ones stay (isCurrent=false). Single mode: the answers must fit the rubric (any subset of its
 * questions, at least one); pairwise: a preference. Concurrent saves of one item are serialised:
 * the same decision as the current one answers it (`duplicate`, nothing new is written); a
 * decision made from a revision that is no longer current (`basedOnRevision`) is a CONFLICT.
 */
export async function recordAdjudication(adjudicatorId: string, raw: RecordAdjudicationInput) {
  const input = parseInput(recordAdjudicationInput, raw, '');
  const item = await findAdjudicationTarget(input.campaignId, input.itemId);
  if (!item) throw new AppError('NOT_FOUND', 'No such item in this campaign');
  const pairwise = item.campaign.mode === 'pairwise';
  let answers: Record<string, unknown> = {};
  if (pairwise) {
    if (input.preference === null)
      throw new AppError('BAD_INPUT', 'preference: choose the final preference (A much better .. B much better)');
  } else {
    const rubric = rubricDefinition.parse(item.campaign.rubricVersion.definition);
    const keys = parseCriteria(item.trajectory.task.acceptanceCriteria).map((c) => c.key);
    const cleaned = Object.fromEntries(Object.entries(input.answers).filter(([, v]) => v !== null && v !== undefined && v !== ''));
    if (Object.keys(cleaned).length === 0) throw new AppError('BAD_INPUT', 'answers: give at least one final answer');
    answers = parseInput(answersSchema(rubric, keys).partial(), cleaned, '', { under: 'answers' }) as Record<string, unknown>;
  }
  const projectId = item.campaign.projectId;
  const written = await writeAdjudication(
    { adjudicatorId, campaignItemId: item.id, projectId },
    {
      answers,
      preference: pairwise ? input.preference : null,
      bothBad: pairwise ? input.bothBad : false,
      rationale: input.rationale,
    },
    input.basedOnRevision,
    (tx, row) =>
      writeAudit(tx, {
        actorId: adjudicatorId,
        action: 'item.adjudicate',
        targetType: 'campaign_item',
        targetId: item.id,
        projectId,
        data: { revision: row.revision },
      }),
  );
  if ('conflict' in written)
    throw new AppError(
      'CONFLICT',
      `Another decision on this item was saved meanwhile (revision ${written.conflict ?? 'none'}): reload to see it before deciding again`,
    );
  return written;
}
