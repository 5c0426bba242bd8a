import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { writeAudit } from '../auth/queries/audit';
import { buildExport } from '../datasets/build-export';
import { exportRequestSchema } from '../datasets/export-dataset';
import { datasetFormatSchema } from '../datasets/formats';
import { createExport } from '../datasets/queries/exports';
import { findEvalItems } from '../datasets/queries/dataset-items';
import { resolveDatasetScope } from '../datasets/resolve-dataset-scope';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { openStore } from '../storage/open-store';
import {
  campaignsOfItems,
  createTrainingRun,
  deleteExportRow,
  exportFileOf,
  findPolicyByName,
  lastLabelEventSeq,
  lookUpLabels,
  somePolicyNames,
} from './queries/training-runs';
import { agentLabelsSchema } from './training-run-schemas';

export const startTrainingRunInput = z.object({
  projectId: z.string().min(1),
  recipe: datasetFormatSchema,
  base: z.string().trim().min(1).max(500),
  baseUri: z.string().trim().min(1).max(2000).optional(),
  campaignId: z.string().min(1).optional(),
  minAgreement: z.number().min(0).max(1).optional(),
  minReviews: z.number().int().min(0).max(100).optional(),
  labels: agentLabelsSchema.optional(),
  maxAttempts: z.number().int().min(1).max(10).default(3),
});
export type StartTrainingRunInput = z.input<typeof startTrainingRunInput>;

/**
 * Starts a training run on a frozen label set: checks the base policy, runs the eval guard over
 * the train split of the scope, writes the train-split export inline (buildExport: the same file
 * `witness export --split train` writes, stored by its sha256), reads the reviews behind its rows
 * (each row's `witness.review_ids`: review ids of single-item campaigns, pairwise-comparison ids
 * of pairwise ones) and records the run (queued) with them. Refused BEFORE anything is queued,
 * with nothing left behind (the export row deleted): a base that is not a policy of the project,
 * a scope touching eval tasks (a count and a link; the ids in details), or 0 rows.
 */
export async function startTrainingRun(raw: StartTrainingRunInput, actorId: string | null): Promise<{ id: string }> {
  const input = parseInput(startTrainingRunInput, raw, '');
  const scope = await resolveDatasetScope({ projectId: input.projectId, campaignId: input.campaignId, split: 'train' });
  const base = await findPolicyByName(input.projectId, input.base);
  if (!base) {
    const names = await somePolicyNames(input.projectId);
    throw new AppError(
      'BAD_INPUT',
      `base: no policy named ${input.base} in project ${scope.projectName}; policies: ${names.length ? names.join(', ') + (names.length === 20 ? '…' : '') : '(none yet: import trajectories first)'}`,
      { details: { field: 'base' } },
    );
  }
  const definition = exportRequestSchema.parse({
    format: input.recipe,
    projectId: input.projectId,
    campaignId: input.campaignId,
    split: 'train',
    minAgreement: input.minAgreement,
    minReviews: input.minReviews,
  });
  const offending = await findEvalItems(scope);
  if (offending.length > 0) {
    const campaigns = await campaignsOfItems(offending.map((o) => o.itemId));
    const links = campaigns.slice(0, 3).map((c) => `/lead/campaigns/${c}`);
    throw new AppError(
      'BAD_INPUT',
      `Refused: ${offending.length}${offending.length >= 1000 ? '+' : ''} item(s) of this scope touch evaluation tasks (a pair across splits, or a task moved to eval since), which never go into training data: see ${links.join(', ')}${campaigns.length > 3 ? ` and ${campaigns.length - 3} more campaigns` : ''}. Nothing was queued.`,
      { details: { offending, campaigns } },
    );
  }
  const labelEventSeq = await lastLabelEventSeq(input.projectId);
  const { format, projectId, ...params } = definition;
  const made = await createExport({
    projectId: projectId!,
    format,
    params: { ...params },
    dedupeKey: null,
    createdById: actorId,
    // the run's own audit entry names the export; a refused start leaves neither
    audit: async () => undefined,
  });
  let built;
  try {
    built = await buildExport(made.id, { retry: false, now: () => new Date(), log: () => undefined });
  } catch (error) {
    await deleteExportRow(made.id);
    throw error;
  }
  const refuse = async (message: string, details?: unknown): Promise<never> => {
    await deleteExportRow(made.id);
    throw new AppError('BAD_INPUT', message, details === undefined ? {} : { details });
  };
  if (!built || !('built' in built)) {
    return refuse(built && 'refused' in built ? built.refused : `the export could not be built (${built ? built.skipped : 'gone'})`);
  }
  if (built.built.rows === 0)
    return refuse(
      `0 rows: the train split of ${input.campaignId ? `campaign ${input.campaignId}` : `project ${scope.projectName}`} gives no ${input.recipe} rows` +
        ` (with min agreement ${definition.minAgreement} and min reviews ${definition.minReviews}); label more items or lower the thresholds. Nothing was queued.`,
    );
  try {
    const labels = await readLabels(made.id, new Map(scope.campaigns.map((c) => [c.id, c.mode])));
    const id = await createTrainingRun(
      {
        projectId: input.projectId,
        recipe: input.recipe,
        basePolicy: base.name,
        basePolicyId: base.id,
        baseUri: input.baseUri ?? null,
        campaignId: input.campaignId ?? null,
        params: { split: 'train', minAgreement: definition.minAgreement, minReviews: definition.minReviews },
        agentLabels: input.labels ?? {},
        exportId: made.id,
        datasetSha256: built.built.sha256,
        datasetRows: built.built.rows,
        labelEventSeq,
        maxAttempts: input.maxAttempts,
        createdById: actorId,
      },
      labels,
      (tx, row) =>
        writeAudit(tx, {
          actorId,
          action: 'training.run.start',
          targetType: 'training_run',
          targetId: row.id,
          projectId: input.projectId,
          data: { recipe: input.recipe, base: base.name, exportId: made.id, rows: built.built.rows, sha256: built.built.sha256 },
        }),
    );
    return { id };
  } catch (error) {
    await deleteExportRow(made.id);
    throw error;
  }
}

/** The reviews behind the stored file's rows (`witness.review_ids`, or `metadata.witness` for slime), looked up. */
async function readLabels(exportId: string, modes: Map<string, 'single' | 'pairwise'>) {
  const file = await exportFileOf(exportId);
  if (!file?.storageKey) throw new AppError('INTERNAL', `export ${exportId} has no stored file`);
  const reviews = new Set<string>();
  const comparisons = new Set<string>();
  const stream = Readable.fromWeb((await openStore().read(file.storageKey)) as NodeReadableStream<Uint8Array>);
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { witness?: Provenance; metadata?: { witness?: Provenance } };
    const p = row.witness ?? row.metadata?.witness;
    if (!p) continue;
    const into = modes.get(p.campaign_id) === 'pairwise' ? comparisons : reviews;
    for (const id of p.review_ids ?? []) into.add(id);
  }
  return lookUpLabels([...reviews], [...comparisons]);
}

interface Provenance {
  campaign_id: string;
  review_ids?: string[];
}
