import { z } from 'zod';
import { expertiseTagSchema } from '../auth/roles';
import { writeAudit } from '../auth/queries/audit';
import { AppError } from '../errors';
import { coverageBasisSchema, readingWpmSchema, tooFastSchema } from '../review/coverage';
import { defaultPacing, pacingSchema } from '../video/pacing';
import { campaignBlindSchema, trajectoryFilterSchema } from './campaign-settings';
import { analyzeCampaignItems, campaignCandidates, insertCampaign, type CampaignItemRow, type PlannedItem } from './queries/campaigns';
import { rubricVersionInProject } from './queries/rubric-list';

export const createCampaignInput = z.object({
  name: z.string().trim().min(1).max(200),
  mode: z.enum(['single', 'pairwise']),
  rubricVersionId: z.string().min(1),
  overlap: z.number().int().min(1).max(20),
  requiredExpertise: z.array(expertiseTagSchema).max(10).default([]),
  minCoverage: z.number().min(0).max(1).default(0),
  coverageBasis: coverageBasisSchema.default('video'),
  /** the reading speed transcript steps are counted at (words a minute) */
  readingWpm: readingWpmSchema.default(230),
  /** a review submitted faster than reading what it reports takes: flagged for the lead, or refused */
  tooFast: tooFastSchema.default('flag'),
  blind: campaignBlindSchema.default({ hidePolicy: true, hideReward: true }),
  filter: trajectoryFilterSchema.default({}),
  leaseSeconds: z.number().int().min(60).max(86_400).default(1800),
  /** the video's pacing; when left out, read for a campaign that requires an expertise, else skim */
  pacing: pacingSchema.optional(),
  /** trajectory ids (single) whose known answers make them gold items */
  gold: z.array(z.object({ trajectoryId: z.string(), answers: z.record(z.string(), z.unknown()) })).default([]),
  open: z.boolean().default(true),
  /** how the items were chosen for review (SamplingMode in schema.prisma) */
  sampling: z.enum(['all', 'random', 'active', 'picked']).default('all'),
  budget: z.record(z.string(), z.unknown()).nullable().default(null),
});
export type CreateCampaignInput = z.input<typeof createCampaignInput>;

/** A campaign of at least this many items refreshes campaign_item's planner statistics once created. */
const ANALYZE_FROM_ITEMS = 500;

/**
 * Creates a campaign and its items (audited: `campaign.create`). Without `planned`, the items are
 * the filter's candidates, every one selected with probability 1 ("review everything"); with it (a
 * random or active sample drawn by the caller from campaignCandidates), exactly those items with
 * their recorded probabilities. Screen sides of pairs are randomised per assignment later.
 */
export async function createCampaign(projectId: string, input: CreateCampaignInput, actorId: string | null, planned?: PlannedItem[]) {
  const data = createCampaignInput.parse(input);
  const version = await rubricVersionInProject(projectId, data.rubricVersionId);
  if (!version) throw new AppError('NOT_FOUND', 'No such rubric version in this project');
  const chosen =
    planned ?? (await campaignCandidates(projectId, data.mode, data.filter)).map((c) => ({ ...c, probability: 1, selected: true }));
  const gold = new Map(data.gold.map((g) => [g.trajectoryId, g.answers]));
  const items: CampaignItemRow[] = chosen.map((c) => {
    const answers = data.mode === 'single' ? gold.get(c.trajectoryId) : undefined;
    return {
      trajectoryId: c.trajectoryId,
      trajectoryBId: c.trajectoryBId,
      isGold: Boolean(answers),
      goldAnswers: answers ?? undefined,
      probability: c.probability,
      selected: c.selected,
    };
  });
  if (items.length === 0)
    throw new AppError(
      'BAD_INPUT',
      data.mode === 'pairwise'
        ? 'No pairs: the filter matches no task with trajectories from two different policies'
        : 'The filter matches no trajectories',
    );
  const selected = items.filter((i) => i.selected).length;
  if (selected === 0) throw new AppError('BAD_INPUT', 'The draw selected no item: raise the budget');
  const campaign = await insertCampaign(
    {
      projectId,
      name: data.name,
      mode: data.mode,
      status: data.open ? 'open' : 'draft',
      rubricVersionId: data.rubricVersionId,
      overlap: data.overlap,
      requiredExpertise: data.requiredExpertise,
      minCoverage: data.minCoverage,
      coverageBasis: data.coverageBasis,
      readingWpm: data.readingWpm,
      tooFast: data.tooFast,
      blind: data.blind,
      pacing: data.pacing ?? defaultPacing(data.requiredExpertise),
      filter: data.filter,
      leaseSeconds: data.leaseSeconds,
      sampling: data.sampling,
      budget: data.budget,
      createdById: actorId,
    },
    items,
    (tx, created) =>
      writeAudit(tx, {
        actorId,
        action: 'campaign.create',
        targetType: 'campaign',
        targetId: created.id,
        projectId,
        data: { items: items.length, selected, sampling: data.sampling },
      }),
  );
  // The claim walks campaign_item's queue index only when the planner knows the campaign is more
  // than a few rows: before autovacuum's next ANALYZE it took a fresh table for a handful of rows
  // and bitmap-scanned and sorted all the campaign's items on every claim (55 ms a claim at 3,000
  // items, one reviewer; 1.0 ms after ANALYZE: the review bench's profile, issue 17).
  if (items.length >= ANALYZE_FROM_ITEMS) await analyzeCampaignItems();
  return { ...campaign, items: items.length, selected, sampling: data.sampling };
}
