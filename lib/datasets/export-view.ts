import { z } from 'zod';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { defaultDeriveOptions } from './derive';
import { datasetFormatSchema } from './formats';
import type { ExportRecord } from './queries/exports';

/** An export as GET /api/v1/exports/ID and POST /api/v1/exports answer it (`exportView`); lib/http/openapi publishes it. */
export const exportViewSchema = z.object({
  id: z.string(),
  format: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  /** 0..1 */
  progress: z.number(),
  rows: z.number().int().nullable(),
  sha256: z.string().nullable(),
  error: z.string().nullable(),
  /** the definition: campaignId, split, minAgreement, minReviews, scoreGap */
  params: z.record(z.string(), z.unknown()),
  purpose: z.enum(['training', 'evaluation']),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});

/** GET /api/v1/exports/ID */
export const exportAnswer = z.object({ export: exportViewSchema });

/**
 * POST /api/v1/exports: what the datasets page and `witness export` define (lib/datasets/export-dataset.ts
 * exportRequestSchema), the project by its slug and the campaign by its id.
 */
export const exportApiRequest = z.object({
  project: projectSlugSchema,
  format: datasetFormatSchema,
  /** only this campaign's items (a campaign of `project`) */
  campaign: z.string().min(1).max(64).optional(),
  /** eval: an evaluation set (the guard keeps training items out of it, and eval items out of a training set) */
  split: z.enum(['train', 'eval']).optional(),
  minAgreement: z.number().min(0).max(1).default(defaultDeriveOptions.minAgreement),
  minReviews: z.number().int().min(0).max(100).default(defaultDeriveOptions.minReviews),
  scoreGap: z.number().min(0).max(1).default(defaultDeriveOptions.scoreGap),
});

/** POST /api/v1/exports: 202; `joined` when an identical export still queued was joined (the same id). */
export const exportRequestedAnswer = z.object({ export: exportViewSchema, joined: z.boolean() });

/** An Export row as the page and the polling route show it (JSON-safe). */
export type ExportView = z.infer<typeof exportViewSchema>;

export function exportView(row: ExportRecord): ExportView {
  const params = (row.params ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    format: row.format,
    status: row.status,
    progress: row.progress,
    rows: row.rows,
    sha256: row.sha256,
    error: row.error,
    params,
    purpose: params.split === 'eval' ? 'evaluation' : 'training',
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
