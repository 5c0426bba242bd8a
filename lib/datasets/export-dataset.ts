import { createHash, randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { countDatasetItems, type DatasetScope, findEvalItems, itemLabelPages, labelRecords } from './queries/dataset-items';
import { resolveDatasetScope } from './resolve-dataset-scope';
import { AppError } from '../errors';
import { type AgreementReport, computeAgreement } from '../stats/compute-agreement';
import type { Annotation } from '../stats/dawid-skene';
import { datasetCard } from './card';
import { comparisonOutcome, fitConsensusModel, MIN_REVIEWS_FOR_DAWID_SKENE, reviewVerdict } from './consensus';
import { type DatasetRow, defaultDeriveOptions, type DeriveOptions, deriveRows, type Excluded } from './derive';
import { datasetFormatSchema, formatKind, jsonlLine, type DatasetFormat } from './formats';
import { assertNoEvalItems, assertRowPurpose, type ExportPurpose, purposeOf } from './guard';
import { parseInput } from '../parse-input';

/**
 * The export use case: scope -> guard -> per campaign (Dawid-Skene fit over its labels, then
 * its items a page at a time) -> rows -> JSONL, written atomically (temp file in the same
 * folder, fsync, rename) with its dataset card beside it. Deterministic: items in a fixed
 * order, no timestamps, so the same content gives the same bytes and the same sha256.
 */
export const exportRequestSchema = z.object({
  format: datasetFormatSchema,
  projectId: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
  campaignId: z.string().min(1).optional(),
  split: z.enum(['train', 'eval']).optional(),
  minAgreement: z.number().min(0).max(1).default(defaultDeriveOptions.minAgreement),
  minReviews: z.number().int().min(0).max(100).default(defaultDeriveOptions.minReviews),
  scoreGap: z.number().min(0).max(1).default(defaultDeriveOptions.scoreGap),
});
export type ExportRequest = z.input<typeof exportRequestSchema>;

export interface ExportResult {
  format: DatasetFormat;
  purpose: ExportPurpose;
  rows: number;
  items: number;
  path: string;
  cardPath: string;
  sha256: string;
  sizeBytes: number;
  excluded: Excluded;
  card: string;
}

export interface ExportOptions {
  /** called after each page with items done / items in scope */
  onProgress?: (done: number, total: number) => void | Promise<void>;
  pageSize?: number;
  signal?: AbortSignal;
}

function labelOf(row: DatasetRow): string {
  switch (row.kind) {
    case 'preference':
      return `pair from ${row.source}`;
    case 'unpaired':
      return row.label ? 'label true (pass)' : 'label false (fail)';
    case 'reward':
      return `score ${Math.min(3, Math.floor(row.score * 4)) / 4}..${Math.min(1, (Math.min(3, Math.floor(row.score * 4)) + 1) / 4)}`;
    case 'sft':
      return 'accepted';
    case 'steps':
      return row.labels[row.labels.length - 1] ? 'all steps correct' : 'ends at a wrong step';
  }
}

/** Writes `data` to a temp file next to `target` and renames it into place (fsync first). */
async function writeAtomic(target: string, text: string): Promise<void> {
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, target);
}

async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    await d.sync().catch(() => undefined);
    await d.close();
  } catch {
    // some platforms cannot open a folder for fsync; the rename is still atomic
  }
}

const LABEL_PAGE_SIZE = 5000;

/**
 * Pass 1 over a campaign's labels (ordered by item, so an item's labels arrive together):
 * keeps only the labels of items with 2+ of them (the only ones that inform agreement and
 * Dawid-Skene), so memory grows with multiply-labelled items, not with rows. Fits Dawid-Skene
 * over those when some item has 3+ labels (the items it decides).
 */
async function campaignModel(scope: DatasetScope, campaignId: string, ratings: Annotation[]) {
  const campaign = scope.campaigns.find((c) => c.id === campaignId)!;
  const multi: Annotation[] = [];
  let needed = false;
  let current: Annotation[] = [];
  const close = () => {
    if (current.length >= 2) for (const a of current) multi.push(a);
    if (current.length >= MIN_REVIEWS_FOR_DAWID_SKENE) needed = true;
    current = [];
  };
  for await (const page of labelRecords(scope, campaignId, LABEL_PAGE_SIZE)) {
    for (const r of page) {
      let label: string | null;
      if (r.answers) {
        const v = reviewVerdict(campaign.rubric, r.answers);
        label = v === null ? null : v ? 'pass' : 'fail';
      } else label = comparisonOutcome({ preference: r.preference ?? 0, bothBad: r.bothBad });
      if (label === null) continue;
      if (current.length > 0 && current[0]!.item !== r.itemId) close();
      current.push({ item: r.itemId, rater: r.reviewerId, label });
    }
  }
  close();
  for (const a of multi) ratings.push(a);
  return needed ? fitConsensusModel(multi) : new Map<string, string>();
}
export async function exportDataset(raw: ExportRequest, outPath: string, options: ExportOptions = {}): Promise<ExportResult> {
  const req = parseInput(exportRequestSchema, raw, 'export');
  const derive: DeriveOptions = { minAgreement: req.minAgreement, minReviews: req.minReviews, scoreGap: req.scoreGap };
  const purpose = purposeOf(req.split);
  const scope = await resolveDatasetScope({ projectId: req.projectId, project: req.project, campaignId: req.campaignId, split: req.split });
  // the guard, before anything is written: a training export must not touch an eval task
  if (purpose === 'training') assertNoEvalItems(await findEvalItems(scope), purpose, scope.projectName);

  const target = path.resolve(outPath);
  const cardPath = `${target}.card.md`;
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const total = await countDatasetItems(scope);
  const kind = formatKind[req.format];
  const excluded: Excluded = {};
  const labels: Record<string, number> = {};
  const ratings: Annotation[] = [];
  let rows = 0;
  let items = 0;
  let adjudicatedRows = 0;
  let size = 0;
  const hash = createHash('sha256');
  const fh = await open(tmp, 'w');
  let chunks: string[] = [];
  let buffered = 0;
  const flush = async () => {
    if (chunks.length === 0) return;
    const buf = Buffer.from(chunks.join(''), 'utf8');
    chunks = [];
    buffered = 0;
    hash.update(buf);
    size += buf.length;
    await fh.write(buf);
  };
  try {
    for (const campaign of scope.campaigns) {
      const model = await campaignModel(scope, campaign.id, ratings);
      for await (const page of itemLabelPages(scope, campaign, { pageSize: options.pageSize })) {
        if (options.signal?.aborted) throw new AppError('UNAVAILABLE', 'The export was cancelled');
        for (const row of deriveRows(kind, page, model, derive, excluded)) {
          assertRowPurpose(row, purpose);
          const line = jsonlLine(req.format, row);
          chunks.push(line);
          buffered += line.length;
          rows++;
          if (row.provenance.adjudicated) adjudicatedRows++;
          const l = labelOf(row);
          labels[l] = (labels[l] ?? 0) + 1;
          if (buffered > 1 << 20) await flush();
        }
        items += page.length;
        await flush();
        await options.onProgress?.(items, total);
      }
    }
    await flush();
    await fh.sync();
  } catch (error) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await fh.close();
  const sha256 = hash.digest('hex');
  let agreement: AgreementReport | null = null;
  if (ratings.length > 0) {
    try {
      agreement = computeAgreement(
        ratings.map((r) => ({ unit: r.item, rater: r.rater, value: r.label })),
        { metric: 'alpha', level: 'nominal', bootstrap: 1000, seed: 1 },
      );
    } catch {
      agreement = null;
    }
  }
  const card = datasetCard({
    format: req.format,
    purpose,
    scope: {
      project: scope.projectName,
      campaigns: scope.campaigns.map((c) => ({ id: c.id, name: c.name, mode: c.mode, rubricVersion: c.rubricVersion })),
      split: scope.split,
    },
    options: derive,
    rows,
    items,
    sha256,
    excluded,
    labels,
    adjudicatedRows,
    agreement,
  });
  try {
    await writeAtomic(cardPath, card);
    await rename(tmp, target);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await syncDir(path.dirname(target));
  return { format: req.format, purpose, rows, items, path: target, cardPath, sha256, sizeBytes: size, excluded, card };
}
