import type { ProjectAccess } from '../auth/project-access';
import { requireProjectRole } from '../auth/project-access';
import { AppError } from '../errors';
import {
  findTrainingRun,
  labelSetSummaries,
  runMetrics,
  trainingRunProjectId,
  type LabelSetSummary,
  type LeaseCheck,
  type TrainingRunRecord,
} from './queries/training-runs';
import type { TrainingRunView } from './training-run-schemas';

/**
 * Who acts on a run: a signed-in user or API token (a SessionUser fits), or the operator at the
 * studio's own terminal (`witness train`: every project, no user id for the audit log).
 */
export interface TrainingCaller {
  id: string | null;
  access: ProjectAccess;
}

/** The run's project when the caller leads it (or is an admin); NOT_FOUND otherwise (FORBIDDEN for a reviewer there). */
export async function requireRunLead(caller: TrainingCaller, runId: string): Promise<string> {
  const projectId = await trainingRunProjectId(runId);
  requireProjectRole(caller.access, projectId, 'lead', 'training run');
  return projectId!;
}

const noSummary: LabelSetSummary = { reviews: 0, reviewers: 0, campaigns: [], reviewerHours: 0, staleReviews: 0 };

/** A run as the API answers it. `metrics`: the points (undefined: left out). */
export function trainingRunView(
  run: TrainingRunRecord,
  summary: LabelSetSummary | undefined,
  metrics?: { step: number; name: string; value: number }[],
): TrainingRunView {
  const s = summary ?? noSummary;
  return {
    id: run.id,
    project: run.project.slug,
    recipe: run.recipe,
    base: { name: run.basePolicy, uri: run.baseUri },
    status: run.status,
    attempts: run.attempts,
    maxAttempts: run.maxAttempts,
    rows: run.datasetRows,
    sha256: run.datasetSha256,
    exportId: run.exportId,
    campaignId: run.campaignId,
    labels: (run.agentLabels ?? {}) as Record<string, string>,
    agent: run.agentName,
    cancelRequested: run.cancelRequested,
    failureReason: run.failureReason,
    evalError: run.evalError,
    logTail: run.logTail === '' ? [] : run.logTail.split('\n'),
    checkpoint:
      run.checkpoint && run.checkpointName
        ? { name: run.checkpoint.name, uri: run.checkpointUri ?? run.checkpoint.checkpoint ?? '', policyId: run.checkpoint.id }
        : null,
    ...(metrics ? { metrics } : {}),
    canaryCampaign: run.canaryCampaignId ? { id: run.canaryCampaignId } : null,
    labelSet: {
      rows: run.datasetRows,
      sha256: run.datasetSha256,
      reviews: s.reviews,
      reviewers: s.reviewers,
      campaigns: s.campaigns,
      reviewerHours: Math.round(s.reviewerHours * 1e6) / 1e6,
      staleReviews: s.staleReviews,
    },
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/** Loads a run's view (NOT_FOUND when it is gone). */
export async function loadRunView(runId: string, options: { metrics: boolean }): Promise<TrainingRunView> {
  const run = await findTrainingRun(runId);
  if (!run) throw new AppError('NOT_FOUND', 'No such training run');
  const [summaries, metrics] = await Promise.all([labelSetSummaries([run.id]), options.metrics ? runMetrics(run.id) : undefined]);
  return trainingRunView(run, summaries.get(run.id), metrics);
}

/** The lease check of every agent write: absent NOT_FOUND; not running or another lease: CONFLICT "lease lost". */
export function leaseHeldBy(runId: string, leaseToken: string): LeaseCheck {
  return (run) => {
    if (!run) throw new AppError('NOT_FOUND', 'No such training run');
    if (run.status !== 'running' || run.leaseToken !== leaseToken)
      throw new AppError(
        'CONFLICT',
        run.status !== 'running'
          ? `lease lost: training run ${runId} is ${run.status}`
          : `lease lost: training run ${runId} was claimed again (attempt ${run.attempts}); this lease is no longer valid`,
        { details: { status: run.status } },
      );
  };
}
