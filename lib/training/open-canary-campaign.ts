import { createHash } from 'node:crypto';
import { writeAudit } from '../auth/queries/audit';
import { createCampaign } from '../campaigns/create-campaign';
import { latestRubricVersion } from '../campaigns/queries/rubric-list';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { stableStringify } from '../ingest/stable-json';
import { defaultReviewRubric } from '../review/default-rubric';
import { projectSettings } from '../trajectories/queries/projects';
import { requestCampaignVideoProps } from '../video/request-campaign-video-props';
import {
  addCampaignItems,
  canaryCampaignOfChild,
  canaryCampaignTasks,
  checkpointsTouching,
  projectGoldPairs,
  recordRunCanaryCampaign,
  runCanarySource,
  sharedTasks,
  type CanaryItemRow,
  type CanaryLineage,
  type SharedTask,
} from './queries/canary';

/** Reviewers per item when the run's labels came from no campaign (a project-wide run). */
export const CANARY_DEFAULT_OVERLAP = 2;

export interface OpenedCanary {
  campaignId: string;
  name: string;
  childPolicyId: string;
  parentPolicyId: string;
  /** true when this call created the campaign */
  created: boolean;
  /** items this call added (the new tasks' pairs, and gold items not there yet) */
  added: number;
}

/** The name of a checkpoint's canary campaign (cut to the campaign name's 200 characters). */
export function canaryCampaignName(child: string, parent: string): string {
  return `Canary: ${child} vs ${parent}`.slice(0, 200);
}

/**
 * Which side of a task's pair the new checkpoint is shown as: A or B, from a hash of the two
 * trajectory ids (deterministic: the same pair always lands the same way; about half each). The
 * item records it (its `trajectoryId` is side A), so the comparison reads votes as new vs parent.
 */
export function childIsA(childTrajectoryId: string, parentTrajectoryId: string): boolean {
  return (createHash('sha256').update(`${childTrajectoryId}|${parentTrajectoryId}`).digest()[0]! & 1) === 0;
}

function pairItem(t: SharedTask): CanaryItemRow {
  return childIsA(t.child, t.parent)
    ? { trajectoryId: t.child, trajectoryBId: t.parent, isGold: false }
    : { trajectoryId: t.parent, trajectoryBId: t.child, isGold: false };
}

/** The rubric, expertise and overlap of the campaign the run's labels came from; else the project's default rubric and overlap 2. */
async function reviewSettings(projectId: string, runId: string | null) {
  const run = runId ? await runCanarySource(runId) : null;
  if (run?.source) return { run, ...run.source };
  const rubricVersionId = await defaultRubricVersion(projectId);
  return { run, rubricVersionId, overlap: CANARY_DEFAULT_OVERLAP, requiredExpertise: [] as string[] };
}

/** The project's default review rubric's latest version, saved first when it is not the latest (or absent). */
async function defaultRubricVersion(projectId: string, retried = false): Promise<string> {
  const rubric = defaultReviewRubric();
  const latest = await latestRubricVersion(projectId, rubric.title);
  if (latest && stableStringify(latest.definition) === stableStringify(rubric)) return latest.id;
  try {
    return (await saveRubricVersion(projectId, rubric.title, rubric, null)).versionId;
  } catch (error) {
    // two checks at once (two workers) both saved it: the unique (project, name) or (rubric, version) refused the second; take the first's
    if ((error as { code?: string }).code === 'P2002' && !retried) return defaultRubricVersion(projectId, true);
    throw error;
  }
}

/**
 * Opens or extends the canary campaign of every checkpoint among `policyIds` or whose parent is
 * among them (the `training.canary` job's work; idempotent). For a checkpoint C of parent P, the
 * tasks with trajectories of both get one blind pairwise item each (the newest trajectory of each
 * side, C shown as A or B by `childIsA`), in the campaign "Canary: C vs P" (open; hides policy and
 * reward; the rubric, required expertise and overlap of the campaign the run's labels came from,
 * else the project's default rubric and overlap 2; the project's pairwise gold items mixed in).
 * Created through lib/campaigns/create-campaign.ts (audited `campaign.create`), its filter
 * recording `{canary: {child, parent}}`, and recorded on the run (`canaryCampaignId`). A later call
 * adds only the tasks not in it yet (audited `training.canary.extend`); a rerun adds nothing.
 * The project's `canary` setting off: nothing.
 */
export async function openCanaryCampaign(projectId: string, policyIds: string[]): Promise<OpenedCanary[]> {
  if (!(await projectSettings(projectId)).canary) return [];
  const opened: OpenedCanary[] = [];
  const lineages = await checkpointsTouching(projectId, [...new Set(policyIds)]);
  if (lineages.length === 0) return [];
  // the project's gold pairs, read once for every checkpoint
  const gold: CanaryItemRow[] = (await projectGoldPairs(projectId)).map((g) => ({ ...g, isGold: true }));
  for (const lineage of lineages) {
    const one = await openOne(projectId, lineage, gold);
    if (one) opened.push(one);
  }
  return opened;
}

async function openOne(projectId: string, lineage: CanaryLineage, gold: CanaryItemRow[], retried = false): Promise<OpenedCanary | null> {
  const tasks = await sharedTasks(lineage.childId, lineage.parentId);
  if (tasks.length === 0) return null;
  const settings = await reviewSettings(projectId, lineage.runId);
  const base = { childPolicyId: lineage.childId, parentPolicyId: lineage.parentId };

  // the run's recorded campaign, else (none recorded, or the recorded one gone) the one whose filter names this checkpoint
  let existingId: string | null = settings.run?.canaryCampaignId ?? null;
  let existing = existingId ? await canaryCampaignTasks(existingId) : null;
  if (!existing) {
    existingId = (await canaryCampaignOfChild(projectId, lineage.childId))?.id ?? null;
    existing = existingId ? await canaryCampaignTasks(existingId) : null;
  }
  if (existingId && existing) {
    if (settings.run && settings.run.canaryCampaignId !== existingId) await recordRunCanaryCampaign(settings.run.id, existingId);
    const fresh = tasks.filter((t) => !existing.taskIds.has(t.taskId)).map(pairItem);
    const added = await addCampaignItems(existingId, [...fresh, ...gold], (tx, count) =>
      writeAudit(tx, {
        actorId: null,
        action: 'training.canary.extend',
        targetType: 'campaign',
        targetId: existingId,
        projectId,
        data: { added: count, tasks: fresh.length, child: lineage.childId, parent: lineage.parentId },
      }),
    );
    if (added > 0) await requestCampaignVideoProps(existingId);
    return { campaignId: existingId, name: existing.name, ...base, created: false, added };
  }

  const items = tasks.map(pairItem);
  const name = canaryCampaignName(lineage.childName, lineage.parentName);
  const campaign = await createCampaign(
    projectId,
    {
      name,
      mode: 'pairwise',
      rubricVersionId: settings.rubricVersionId,
      overlap: settings.overlap,
      requiredExpertise: settings.requiredExpertise,
      blind: { hidePolicy: true, hideReward: true },
      filter: {
        trajectoryIds: items.flatMap((i) => [i.trajectoryId, i.trajectoryBId]),
        canary: { child: lineage.childId, parent: lineage.parentId },
      },
      sampling: 'picked',
      open: true,
    },
    null,
    items.map((i) => ({ trajectoryId: i.trajectoryId, trajectoryBId: i.trajectoryBId, probability: 1, selected: true })),
  ).catch((error: unknown) => {
    // another worker created this checkpoint's canary campaign first (one a checkpoint: the unique index of
    // migration canary_campaign_unique): extend that one instead
    if ((error as { code?: string }).code === 'P2002' && !retried) return null;
    throw error;
  });
  if (campaign === null) return openOne(projectId, lineage, gold, true);
  if (settings.run) await recordRunCanaryCampaign(settings.run.id, campaign.id);
  const goldAdded = await addCampaignItems(campaign.id, gold, (tx, count) =>
    writeAudit(tx, {
      actorId: null,
      action: 'training.canary.extend',
      targetType: 'campaign',
      targetId: campaign.id,
      projectId,
      data: { added: count, gold: count, child: lineage.childId, parent: lineage.parentId },
    }),
  );
  await requestCampaignVideoProps(campaign.id);
  return { campaignId: campaign.id, name, ...base, created: true, added: items.length + goldAdded };
}
