import type { Prisma } from '@prisma/client';
import type { SinkKind } from '../sink-config';
import { redactUrlCredentials } from '../url-credentials';
import { db } from '../../db/client';

/**
 * Training sinks (admin-configured destinations of the label stream) and their deliveries.
 * The delivery engine (lib/training/deliver-sink.ts) moves Delivery rows only through the
 * conditional updates here.
 */
const sinkSelect = {
  id: true,
  projectId: true,
  name: true,
  kind: true,
  config: true,
  secret: true,
  format: true,
  filter: true,
  enabled: true,
  cursor: true,
  createdAt: true,
} satisfies Prisma.TrainingSinkSelect;
export type SinkRow = Prisma.TrainingSinkGetPayload<{ select: typeof sinkSelect }>;

/** Writes a sink; null when the project has a sink of that name already (nothing written). */
export async function insertSink(
  projectId: string,
  sink: { name: string; kind: SinkKind; format: string; config: object; filter: object; secret: string | null },
): Promise<SinkRow | null> {
  try {
    return await db().trainingSink.create({
      data: {
        projectId,
        name: sink.name,
        kind: sink.kind,
        format: sink.format,
        config: sink.config as Prisma.InputJsonValue,
        filter: sink.filter as Prisma.InputJsonValue,
        secret: sink.secret,
      },
      select: sinkSelect,
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return null;
    throw error;
  }
}

/** Whether the campaign is one of the project's (a sink's filter may name only those). */
export async function campaignIsInProject(campaignId: string, projectId: string): Promise<boolean> {
  return (await db().campaign.findFirst({ where: { id: campaignId, projectId }, select: { id: true } })) !== null;
}

export async function findSink(sinkId: string): Promise<SinkRow | null> {
  return db().trainingSink.findUnique({ where: { id: sinkId }, select: sinkSelect });
}

/** Turns a sink on or off; false when there is no such sink. */
export async function updateSinkEnabled(sinkId: string, enabled: boolean): Promise<boolean> {
  const n = await db().trainingSink.updateMany({ where: { id: sinkId }, data: { enabled } });
  return n.count > 0;
}

export async function enabledSinkIds(): Promise<string[]> {
  const rows = await db().trainingSink.findMany({ where: { enabled: true }, select: { id: true }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.id);
}

export interface SinkListRow {
  id: string;
  name: string;
  kind: SinkKind;
  format: string;
  enabled: boolean;
  cursor: string | null;
  project: string;
  target: string;
  filter: unknown;
  counts: Record<'pending' | 'sending' | 'delivered' | 'dead', number>;
  rowsDelivered: number;
  lastDeliveredAt: Date | null;
}

function targetOf(kind: SinkKind, config: unknown): string {
  const c = (config ?? {}) as Record<string, unknown>;
  if (kind === 'webhook') return redactUrlCredentials(String(c.url ?? ''));
  if (kind === 'directory') return String(c.path ?? '');
  return `s3://${String(c.bucket ?? '')}${c.prefix ? `/${String(c.prefix)}` : ''}`;
}

/** Every sink (admins see all projects) with delivery counts by status. */
export async function listSinks(): Promise<SinkListRow[]> {
  const sinks = await db().trainingSink.findMany({
    select: {
      id: true,
      name: true,
      kind: true,
      format: true,
      enabled: true,
      cursor: true,
      config: true,
      filter: true,
      project: { select: { slug: true } },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const grouped = await db().delivery.groupBy({
    by: ['sinkId', 'status'],
    _count: { _all: true },
    _sum: { rows: true },
    _max: { deliveredAt: true },
  });
  return sinks.map((s) => {
    const counts = { pending: 0, sending: 0, delivered: 0, dead: 0 };
    let rowsDelivered = 0;
    let lastDeliveredAt: Date | null = null;
    for (const g of grouped) {
      if (g.sinkId !== s.id) continue;
      counts[g.status] = g._count._all;
      if (g.status === 'delivered') {
        rowsDelivered = g._sum.rows ?? 0;
        lastDeliveredAt = g._max.deliveredAt;
      }
    }
    return {
      id: s.id,
      name: s.name,
      kind: s.kind,
      format: s.format,
      enabled: s.enabled,
      cursor: s.cursor,
      project: s.project.slug,
      target: targetOf(s.kind, s.config),
      filter: s.filter,
      counts,
      rowsDelivered,
      lastDeliveredAt,
    };
  });
}

const deliverySelect = {
  id: true,
  sinkId: true,
  sequence: true,
  idempotencyKey: true,
  status: true,
  rows: true,
  cursorFrom: true,
  cursorTo: true,
  sha256: true,
  attempts: true,
  lastError: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
} satisfies Prisma.DeliverySelect;
export type DeliveryRow = Prisma.DeliveryGetPayload<{ select: typeof deliverySelect }>;

/** Newest first. */
export async function listDeliveries(sinkId: string, limit = 50): Promise<DeliveryRow[]> {
  return db().delivery.findMany({ where: { sinkId }, select: deliverySelect, orderBy: { sequence: 'desc' }, take: limit });
}

/** The oldest delivery not yet delivered (pending, sending or dead), with its body: it goes before any new batch. */
export async function openDelivery(sinkId: string) {
  return db().delivery.findFirst({
    where: { sinkId, status: { in: ['pending', 'sending', 'dead'] } },
    select: { ...deliverySelect, body: true },
    orderBy: { sequence: 'asc' },
  });
}
export type OpenDelivery = NonNullable<Awaited<ReturnType<typeof openDelivery>>>;

export async function lastDeliverySequence(sinkId: string): Promise<number> {
  const row = await db().delivery.findFirst({ where: { sinkId }, select: { sequence: true }, orderBy: { sequence: 'desc' } });
  return row?.sequence ?? 0;
}

/**
 * Stores a batch BEFORE it is sent (pending, body + sha256, sequence, key `${sinkId}:${sequence}`).
 * Returns null when another run already stored that sequence (the caller re-reads the open one).
 */
export async function storeDelivery(
  sinkId: string,
  batch: { sequence: number; rows: number; cursorFrom: string | null; cursorTo: string; body: Buffer; sha256: string },
): Promise<OpenDelivery | null> {
  try {
    return await db().delivery.create({
      data: {
        sinkId,
        sequence: batch.sequence,
        idempotencyKey: `${sinkId}:${batch.sequence}`,
        status: 'pending',
        rows: batch.rows,
        cursorFrom: batch.cursorFrom,
        cursorTo: batch.cursorTo,
        body: new Uint8Array(batch.body),
        sha256: batch.sha256,
      },
      select: { ...deliverySelect, body: true },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return null;
    throw error;
  }
}

/** pending|sending -> sending, one more attempt counted (before the bytes leave). */
export async function markSending(deliveryId: string, now: Date): Promise<number | null> {
  const rows = await db().$queryRaw<{ attempts: number }[]>`
    UPDATE delivery SET status = 'sending', attempts = attempts + 1, "nextAttemptAt" = NULL
    WHERE id = ${deliveryId} AND status IN ('pending', 'sending') AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${now})
    RETURNING attempts`;
  return rows[0]?.attempts ?? null;
}

/** A failed attempt: back to pending with a retry time, or dead after the last attempt. */
export async function markAttemptFailed(deliveryId: string, error: string, retryAt: Date | null): Promise<void> {
  await db().delivery.updateMany({
    where: { id: deliveryId, status: 'sending' },
    data: retryAt
      ? { status: 'pending', lastError: error.slice(0, 2000), nextAttemptAt: retryAt }
      : { status: 'dead', lastError: error.slice(0, 2000), nextAttemptAt: null },
  });
}

/**
 * The sink acknowledged: the delivery is delivered and the sink's cursor moves to its end, in
 * one transaction (the cursor never passes a label the sink has not acknowledged).
 */
export async function markDelivered(
  delivery: { id: string; sinkId: string; cursorFrom: string | null; cursorTo: string | null },
  now: Date,
): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const done = await tx.delivery.updateMany({
      where: { id: delivery.id, status: { in: ['sending', 'pending'] } },
      data: { status: 'delivered', deliveredAt: now, lastError: null, nextAttemptAt: null },
    });
    if (done.count === 0) return false;
    // forward only: from the batch's start to its end (a re-sent older batch never moves it back)
    await tx.trainingSink.updateMany({ where: { id: delivery.sinkId, cursor: delivery.cursorFrom }, data: { cursor: delivery.cursorTo } });
    return true;
  });
}

/** Events that made no rows for this sink (filtered out): the cursor moves past them if nobody moved it. */
export async function advanceCursor(sinkId: string, from: string | null, to: string): Promise<boolean> {
  const n = await db().trainingSink.updateMany({ where: { id: sinkId, cursor: from }, data: { cursor: to } });
  return n.count === 1;
}

/** A delivery's sink and status, or null when there is no such delivery. */
export async function findDeliveryStatus(deliveryId: string) {
  return db().delivery.findUnique({ where: { id: deliveryId }, select: { sinkId: true, status: true } });
}

/** A dead delivery back to pending with a fresh attempt budget, same body and key (a delivery no longer dead is left alone). */
export async function requeueDeadDelivery(deliveryId: string): Promise<void> {
  await db().delivery.updateMany({
    where: { id: deliveryId, status: 'dead' },
    data: { status: 'pending', attempts: 0, nextAttemptAt: null },
  });
}

export async function deliveryBody(deliveryId: string): Promise<Buffer | null> {
  const row = await db().delivery.findUnique({ where: { id: deliveryId }, select: { body: true } });
  return row?.body ? Buffer.from(row.body) : null;
}
