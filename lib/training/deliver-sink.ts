import {
  advanceCursor,
  findSink,
  lastDeliverySequence,
  markAttemptFailed,
  markDelivered,
  markSending,
  openDelivery,
  storeDelivery,
  type OpenDelivery,
  type SinkRow,
} from './queries/training-sinks';
import type { LabelTrajectory } from '../datasets/labels';
import { backoffMs } from './backoff';
import { buildBatch } from './build-batch';
import { sendBatch } from './send-batch';
import { parseSinkConfig, type SinkConfig, type SinkKind } from './sink-config';
import { redactUrlCredentials } from './url-credentials';

/**
 * The delivery loop of one sink (what job `training.deliver` runs). Order per sink is kept by
 * always finishing the oldest open delivery first:
 *
 * 1. an open delivery (pending / sending, e.g. left by a killed worker) is re-sent with the same
 *    body and Idempotency-Key; a dead one stops the sink until an admin retries it;
 * 2. otherwise the next batch is built from the label events after the sink's cursor and stored
 *    as a pending Delivery (body + sha256, next sequence) BEFORE anything is sent;
 * 3. a send that the sink acknowledges marks the delivery delivered and moves the cursor in one
 *    transaction; a failure schedules a retry (exponential backoff with jitter) or, after the
 *    last attempt, marks it dead.
 *
 * A crash anywhere leaves either no delivery (the events are re-read), or a stored one that the
 * next run re-sends byte for byte: the receiver sees each label in order, and exactly once after
 * de-duplicating by key.
 */
export interface DeliverOptions {
  now?: () => Date;
  random?: () => number;
  signal?: AbortSignal;
  /** stop after this many sends (successful or not) */
  maxSends?: number;
  log?: (line: string) => void;
}

export interface DeliverOutcome {
  state: 'idle' | 'waiting' | 'dead' | 'disabled' | 'stopped';
  delivered: number;
  rows: number;
  /** when state is waiting: the next attempt's time */
  retryAt?: Date;
  lastError?: string;
}

export async function deliverSink(sinkId: string, options: DeliverOptions = {}): Promise<DeliverOutcome> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  let delivered = 0;
  let rows = 0;
  let sends = 0;
  const cache = new Map<string, LabelTrajectory>();
  for (;;) {
    if (options.signal?.aborted) return { state: 'stopped', delivered, rows };
    const sink = await findSink(sinkId);
    if (!sink || !sink.enabled) return { state: 'disabled', delivered, rows };
    const config = parseSinkConfig(sink.kind as SinkKind, sink.config);
    let open = await openDelivery(sinkId);
    if (!open) {
      const batch = await buildBatch(sink, cache);
      if (!batch) return { state: 'idle', delivered, rows };
      if (batch.rows === 0) {
        // nothing in these events for this sink (filtered out): move past them
        await advanceCursor(sinkId, batch.cursorFrom, batch.cursorTo);
        continue;
      }
      const sequence = (await lastDeliverySequence(sinkId)) + 1;
      open = await storeDelivery(sinkId, {
        sequence,
        rows: batch.rows,
        cursorFrom: batch.cursorFrom,
        cursorTo: batch.cursorTo,
        body: batch.body,
        sha256: batch.sha256,
      });
      if (!open) continue;
      log(`sink ${sink.name}: batch ${sequence} stored (${batch.rows} rows, events ${batch.cursorFrom ?? 0}..${batch.cursorTo})`);
    }
    if (open.status === 'dead') return { state: 'dead', delivered, rows, lastError: open.lastError ?? undefined };
    if (open.nextAttemptAt && open.nextAttemptAt > now())
      return { state: 'waiting', delivered, rows, retryAt: open.nextAttemptAt, lastError: open.lastError ?? undefined };
    if (options.maxSends !== undefined && sends >= options.maxSends) return { state: 'stopped', delivered, rows };
    sends++;
    const result = await attempt(sink, config, open, now, options);
    if (result.ok) {
      delivered++;
      rows += open.rows;
      continue;
    }
    if (result.retryAt) return { state: 'waiting', delivered, rows, retryAt: result.retryAt, lastError: result.error };
    return { state: 'dead', delivered, rows, lastError: result.error };
  }
}

async function attempt(
  sink: SinkRow,
  config: SinkConfig,
  open: OpenDelivery,
  now: () => Date,
  options: DeliverOptions,
): Promise<{ ok: true } | { ok: false; error: string; retryAt: Date | null }> {
  const attempts = await markSending(open.id, now());
  if (attempts === null) return { ok: false, error: 'another run is sending this batch', retryAt: new Date(now().getTime() + 1000) };
  try {
    await sendBatch(
      config,
      sink.secret,
      {
        sinkId: sink.id,
        sinkName: sink.name,
        format: sink.format,
        sequence: open.sequence,
        idempotencyKey: open.idempotencyKey,
        rows: open.rows,
        cursorFrom: open.cursorFrom,
        cursorTo: open.cursorTo,
        sha256: open.sha256 ?? '',
        body: Buffer.from(open.body ?? new Uint8Array()),
      },
      options.signal,
    );
  } catch (error) {
    // whatever threw (ours, node:http, a library quoting the URL), the sink URL's credentials
    // never reach the stored error, the job's output or the log
    const message = redactUrlCredentials((error as Error).message, config.kind === 'webhook' ? config.url : undefined);
    const retryAt =
      attempts >= config.retry.attempts ? null : new Date(now().getTime() + backoffMs(attempts, config.retry, options.random));
    await markAttemptFailed(open.id, `attempt ${attempts}: ${message}`, retryAt);
    options.log?.(
      `sink ${sink.name}: batch ${open.sequence} attempt ${attempts} failed (${message}); ${retryAt ? `retry at ${retryAt.toISOString()}` : 'dead'}`,
    );
    return { ok: false, error: message, retryAt };
  }
  await markDelivered({ id: open.id, sinkId: sink.id, cursorFrom: open.cursorFrom, cursorTo: open.cursorTo }, now());
  options.log?.(`sink ${sink.name}: batch ${open.sequence} delivered (${open.rows} rows)`);
  return { ok: true };
}
