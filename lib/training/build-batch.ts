import { createHash } from 'node:crypto';
import type { LabelTrajectory } from '../datasets/labels';
import { finalSiblingItemIds, itemLabelsForIds } from '../datasets/queries/dataset-items';
import { resolveDatasetScope } from '../datasets/resolve-dataset-scope';
import { readLabelEvents } from '../review/read-label-events';
import type { SinkRow } from './queries/training-sinks';
import { type DatasetRow, type Excluded, deriveRows } from '../datasets/derive';
import { datasetFormatSchema, formatKind, jsonlLine } from '../datasets/formats';
import { assertRowPurpose } from '../datasets/guard';
import { parseSinkConfig, parseSinkFilter, type SinkKind } from './sink-config';

/**
 * The next batch of a sink: the label events after its cursor (a gap-free prefix, see
 * lib/review/queries/label-events.ts), their items' current labels, rows derived with lib/datasets in the
 * sink's format, filtered by the sink's filter, and the eval guard: the scope is the train split
 * (eval items never load), and every row is checked again (assertRowPurpose) before it is
 * written. Consensus is per batch (majority; adjudications first): Dawid-Skene needs the whole
 * campaign and belongs to full exports. Score pairs (preference formats on single-item
 * campaigns) pair a newly final item with the items of its task that were final before it, so
 * each pair is sent once, when its later item becomes final.
 */
export interface Batch {
  cursorFrom: string | null;
  cursorTo: string;
  events: number;
  rows: number;
  body: Buffer;
  sha256: string;
  excluded: Excluded;
}

/** `cache`: trajectories kept between the batches of one run (they never change; bounded by the loader). */
export async function buildBatch(
  sink: Pick<SinkRow, 'id' | 'projectId' | 'kind' | 'config' | 'format' | 'filter' | 'cursor'>,
  cache: Map<string, LabelTrajectory> = new Map(),
): Promise<Batch | null> {
  const config = parseSinkConfig(sink.kind as SinkKind, sink.config);
  const filter = parseSinkFilter(sink.filter);
  const format = datasetFormatSchema.parse(sink.format);
  const events = await readLabelEvents(sink.projectId, sink.cursor ? BigInt(sink.cursor) : null, config.batchSize);
  if (events.length === 0) return null;
  const lastSeq = events[events.length - 1]!.seq;
  const order = new Map<string, number>();
  for (const e of events) if (!order.has(e.campaignItemId)) order.set(e.campaignItemId, order.size);
  const excluded: Excluded = {};
  const scope = await resolveDatasetScope({ projectId: sink.projectId, campaignId: filter.campaignId, split: 'train' });
  const items = await itemLabelsForIds(scope, [...order.keys()], cache);
  if (items.length < order.size) excluded.not_in_filter_or_eval_split = order.size - items.length;
  const kind = formatKind[format];
  let context: typeof items = [];
  if (kind === 'preference')
    context = await itemLabelsForIds(scope, await finalSiblingItemIds(scope, items, lastSeq, new Set(order.keys())), cache);
  const derived = deriveRows(
    kind,
    [...items, ...context],
    undefined,
    { minReviews: filter.minReviews, minAgreement: filter.minAgreement, scoreGap: filter.scoreGap },
    excluded,
  );
  const rank = (row: DatasetRow) => Math.min(...row.provenance.item_ids.map((id) => order.get(id) ?? Number.POSITIVE_INFINITY));
  const rows = derived.filter((r) => Number.isFinite(rank(r))).sort((a, b) => rank(a) - rank(b));
  const lines: string[] = [];
  for (const row of rows) {
    // the guard's last line: a training sink never receives an eval trajectory
    assertRowPurpose(row, 'training');
    lines.push(jsonlLine(format, row));
  }
  const body = Buffer.from(lines.join(''), 'utf8');
  return {
    cursorFrom: sink.cursor,
    cursorTo: lastSeq.toString(),
    events: events.length,
    rows: rows.length,
    body,
    sha256: createHash('sha256').update(body).digest('hex'),
    excluded,
  };
}
