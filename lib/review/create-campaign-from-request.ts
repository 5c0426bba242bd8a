import type { z } from 'zod';
import { previewCampaign, trajectoriesInFilter } from '../db/campaigns/campaign-preview';
import { createCampaign } from '../db/campaigns/campaigns';
import { findProjectBySlug } from '../db/trajectories/projects';
import { latestRubricVersion, rubricVersionInProject } from '../db/campaigns/rubric-list';
import { saveRubricVersion } from '../db/campaigns/rubrics';
import { AppError } from '../errors';
import { stableStringify } from '../ingest/stable-json';
import { campaignRequest, requestIssue } from './campaign-request';
import { answersSchema, rubricDefinition, type RubricDefinition } from './rubric';
import { rubricIssues } from './rubric-issues';

function badInput(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('BAD_INPUT', field ? `${field}: ${message}` : message, { details: { field, ...extra } });
}

/**
 * Creates a campaign from a lead's request (form or API). Checks, in order, each saying where:
 * the request shape, the project, the rubric (a version of this project, or a valid definition),
 * that the filter selects items, and the gold items (single mode, inside the filter, answers that
 * fit the rubric). Only then is a rubric version saved (when the definition changed) and the
 * campaign created, so a refused request leaves nothing behind.
 */
export async function createCampaignFromRequest(raw: unknown, actorId: string | null) {
  const parsed = campaignRequest.safeParse(raw);
  if (!parsed.success) {
    const { field, message } = requestIssue(parsed.error);
    throw badInput(field, message);
  }
  const req = parsed.data;
  const project = await findProjectBySlug(req.project);

  let rubric: RubricDefinition;
  let versionId: string | null = null;
  if ('versionId' in req.rubric) {
    const version = await rubricVersionInProject(project.id, req.rubric.versionId);
    if (!version) throw badInput('rubric.versionId', `no rubric version ${req.rubric.versionId} in project ${project.slug}`);
    rubric = rubricDefinition.parse(version.definition);
    versionId = version.id;
  } else {
    const checked = rubricIssues(req.rubric.definition);
    if (!checked.ok) {
      const first = checked.issues[0]!;
      throw badInput(`rubric.definition${first.path ? `.${first.path}` : ''}`, first.message, { issues: checked.issues });
    }
    rubric = checked.rubric;
    const latest = await latestRubricVersion(project.id, req.rubric.name);
    if (latest && stableStringify(latest.definition) === stableStringify(rubric)) versionId = latest.id;
  }

  const preview = await previewCampaign(project.id, req.mode, req.filter);
  if (preview.items === 0) {
    throw badInput(
      'filter',
      req.mode === 'pairwise'
        ? `no pairs: the filter matches ${preview.trajectories} trajectories but no task with runs from two different policies`
        : 'the filter matches no trajectories in this project',
    );
  }

  if (req.gold.length > 0) {
    if (req.mode !== 'single') throw badInput('gold', 'gold items are for single-item campaigns');
    const inFilter = new Set(
      await trajectoriesInFilter(
        project.id,
        req.filter,
        req.gold.map((g) => g.trajectoryId),
      ),
    );
    const questionIds = new Set(rubric.questions.map((q) => q.id));
    for (const [i, g] of req.gold.entries()) {
      if (!inFilter.has(g.trajectoryId))
        throw badInput(`gold.${i}.trajectoryId`, `trajectory ${g.trajectoryId} is not among the campaign's items`);
      const unknown = Object.keys(g.answers).filter((k) => !questionIds.has(k));
      if (unknown.length) throw badInput(`gold.${i}.answers`, `no question ${unknown.join(', ')} in the rubric`);
      if (Object.keys(g.answers).length === 0) throw badInput(`gold.${i}.answers`, 'a gold item needs at least one known answer');
      const criteriaKeys = Object.keys((g.answers.criteria as Record<string, unknown> | undefined) ?? {});
      const fits = (answersSchema(rubric, criteriaKeys) as z.ZodObject).partial().safeParse(g.answers);
      if (!fits.success) {
        const issue = fits.error.issues[0]!;
        throw badInput(`gold.${i}.answers.${issue.path.join('.')}`, issue.message);
      }
    }
  }

  let rubricCreated = false;
  if (!versionId) {
    if ('versionId' in req.rubric) throw new AppError('INTERNAL', 'unreachable');
    const saved = await saveRubricVersion(project.id, req.rubric.name, rubric, actorId);
    versionId = saved.versionId;
    rubricCreated = true;
  }
  const campaign = await createCampaign(
    project.id,
    {
      name: req.name,
      mode: req.mode,
      rubricVersionId: versionId,
      overlap: req.overlap,
      requiredExpertise: req.requiredExpertise,
      minCoverage: req.minCoverage,
      coverageBasis: req.coverageBasis,
      blind: req.blind,
      filter: req.filter,
      leaseSeconds: req.leaseSeconds,
      gold: req.gold,
      open: req.open,
    },
    actorId,
  );
  return { ...campaign, project: project.slug, rubricVersionId: versionId, rubricVersionCreated: rubricCreated };
}
