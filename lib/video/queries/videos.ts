import type { VideoPacing, VideoStatus } from '@prisma/client';
import { db } from '../../db/client';

/**
 * Video rows and their chunks. Every status change is conditional (it names the status it
 * expects), so a retried or duplicated job can never move a video backwards or render it twice.
 */
const videoSelect = {
  id: true,
  trajectoryId: true,
  compositionVersion: true,
  pacing: true,
  status: true,
  progress: true,
  storageKey: true,
  frames: true,
  fps: true,
  durationSec: true,
  sizeBytes: true,
  error: true,
  attempts: true,
  startedAt: true,
  finishedAt: true,
  updatedAt: true,
} as const;

export type VideoRow = Awaited<ReturnType<typeof findVideo>>;

/** `joined`: the video was already queued, rendering or done, so the call queued nothing. */
type RequestedVideo = { id: string; status: VideoStatus; created: boolean; joined: boolean; limited?: undefined };

/**
 * Finds or creates the video for (trajectory, composition version, pacing). A failed one is
 * re-queued. A video that is queued, rendering or done is joined.
 *
 * With a `requester`, a render this call would queue (a new row, or a failed one queued again)
 * counts against their limit of pending renders (queued or rendering, `requestedById`): when
 * they already have `limit`, nothing is queued and the answer is `{ limited: pending }`. Their
 * requests take turns on an advisory lock, so concurrent ones cannot pass the limit together.
 */
export async function requestVideo(trajectoryId: string, compositionVersion: string, pacing: VideoPacing): Promise<RequestedVideo>;
export async function requestVideo(
  trajectoryId: string,
  compositionVersion: string,
  pacing: VideoPacing,
  requester: { userId: string; limit: number } | undefined,
): Promise<RequestedVideo | { limited: number }>;
export async function requestVideo(
  trajectoryId: string,
  compositionVersion: string,
  pacing: VideoPacing,
  requester?: { userId: string; limit: number },
): Promise<RequestedVideo | { limited: number }> {
  const key = { trajectoryId_compositionVersion_pacing: { trajectoryId, compositionVersion, pacing } };
  const select = { id: true, status: true } as const;
  const existing = await db().video.findUnique({ where: key, select });
  if (existing && existing.status !== 'failed') return { ...existing, created: false, joined: true };
  if (!requester) {
    if (existing) {
      await db().video.updateMany({ where: { id: existing.id, status: 'failed' }, data: { status: 'queued', error: null, progress: 0 } });
      return { id: existing.id, status: 'queued', created: false, joined: false };
    }
    try {
      const row = await db().video.create({ data: { trajectoryId, compositionVersion, pacing }, select });
      return { ...row, created: true, joined: false };
    } catch (error) {
      if ((error as { code?: string }).code !== 'P2002') throw error;
      const row = await db().video.findUniqueOrThrow({ where: key, select });
      return { ...row, created: false, joined: true };
    }
  }
  const { userId, limit } = requester;
  return db().$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`pending_renders:${userId}`}, 0))::text`;
      // under the lock: another request (any user's) may have queued this video meanwhile
      const now = await tx.video.findUnique({ where: key, select });
      if (now && now.status !== 'failed') return { ...now, created: false, joined: true };
      const pending = await tx.video.count({ where: { requestedById: userId, status: { in: ['queued', 'rendering'] } } });
      if (pending >= limit) return { limited: pending };
      if (now) {
        const requeued = await tx.video.updateMany({
          where: { id: now.id, status: 'failed' },
          data: { status: 'queued', error: null, progress: 0, requestedById: userId },
        });
        if (requeued.count === 1) return { id: now.id, status: 'queued' as const, created: false, joined: false };
      } else {
        // ON CONFLICT DO NOTHING: a row another user's request created first is joined, not an error
        const made = await tx.video.createMany({
          data: [{ trajectoryId, compositionVersion, pacing, requestedById: userId }],
          skipDuplicates: true,
        });
        const row = await tx.video.findUniqueOrThrow({ where: key, select });
        return { ...row, created: made.count === 1, joined: made.count === 0 };
      }
      return { ...(await tx.video.findUniqueOrThrow({ where: key, select })), created: false, joined: true };
    },
    { maxWait: 15_000, timeout: 15_000 },
  );
}

export async function findVideo(videoId: string) {
  return db().video.findUnique({ where: { id: videoId }, select: videoSelect });
}

/** The newest video of a trajectory at a pacing (any composition version), for the trajectory page. */
export async function latestVideoForTrajectory(trajectoryId: string, pacing: VideoPacing) {
  return db().video.findFirst({ where: { trajectoryId, pacing }, select: videoSelect, orderBy: { createdAt: 'desc' } });
}

/**
 * The pacing a trajectory's video is watched at: read when a campaign that holds it (either
 * side of a pair) paces for reading, else skim (the lead's overview).
 */
export async function pacingOfTrajectory(trajectoryId: string): Promise<VideoPacing> {
  const read = await db().campaignItem.findFirst({
    where: { OR: [{ trajectoryId }, { trajectoryBId: trajectoryId }], campaign: { pacing: 'read' } },
    select: { id: true },
  });
  return read ? 'read' : 'skim';
}

/** queued (or a stale rendering after a crash) -> rendering; false when another worker has it or it is done. */
export async function startVideoRender(videoId: string, now: Date, staleAfterMs = 15 * 60_000): Promise<boolean> {
  const result = await db().video.updateMany({
    where: {
      id: videoId,
      OR: [{ status: 'queued' }, { status: 'rendering', updatedAt: { lt: new Date(now.getTime() - staleAfterMs) } }],
    },
    data: { status: 'rendering', startedAt: now, attempts: { increment: 1 }, error: null },
  });
  return result.count === 1;
}

/** For a retry of the same job after a crash: the row is ours if it is rendering. */
export async function resumeVideoRender(videoId: string): Promise<boolean> {
  return (await db().video.count({ where: { id: videoId, status: 'rendering' } })) === 1;
}

export async function setVideoProgress(videoId: string, progress: number): Promise<void> {
  await db().video.updateMany({ where: { id: videoId, status: 'rendering' }, data: { progress: Math.max(0, Math.min(1, progress)) } });
}

export async function finishVideo(
  videoId: string,
  result: { storageKey: string; frames: number; fps: number; durationSec: number; sizeBytes: number },
  now: Date,
): Promise<boolean> {
  const updated = await db().video.updateMany({
    where: { id: videoId, status: 'rendering' },
    data: { ...result, status: 'done', progress: 1, finishedAt: now, error: null },
  });
  return updated.count === 1;
}

/** Records a readable error; the video can be requested again. */
export async function failVideo(videoId: string, error: string, now: Date): Promise<void> {
  await db().video.updateMany({
    where: { id: videoId, status: { in: ['queued', 'rendering'] } },
    data: { status: 'failed', error: error.slice(0, 2000), finishedAt: now },
  });
}

// ------------------------------------------------------------------ chunks

/** Creates the chunk rows once (idempotent: existing rows are kept). */
export async function ensureVideoChunks(videoId: string, ranges: { fromFrame: number; toFrame: number }[]): Promise<void> {
  await db().videoChunk.createMany({
    data: ranges.map((r, index) => ({ videoId, index, fromFrame: r.fromFrame, toFrame: r.toFrame })),
    skipDuplicates: true,
  });
}

export async function listVideoChunks(videoId: string) {
  return db().videoChunk.findMany({
    where: { videoId },
    select: { id: true, index: true, fromFrame: true, toFrame: true, status: true, progress: true, storageKey: true, error: true },
    orderBy: { index: 'asc' },
  });
}

export async function startChunkRender(videoId: string, index: number, now: Date, staleAfterMs = 15 * 60_000): Promise<boolean> {
  const result = await db().videoChunk.updateMany({
    where: {
      videoId,
      index,
      OR: [{ status: { in: ['queued', 'failed'] } }, { status: 'rendering', updatedAt: { lt: new Date(now.getTime() - staleAfterMs) } }],
    },
    data: { status: 'rendering', attempts: { increment: 1 }, error: null, progress: 0 },
  });
  return result.count === 1;
}

export async function setChunkProgress(videoId: string, index: number, progress: number): Promise<void> {
  await db().videoChunk.updateMany({ where: { videoId, index, status: 'rendering' }, data: { progress } });
  // the video's progress is the mean of its chunks'
  const chunks = await db().videoChunk.findMany({ where: { videoId }, select: { progress: true, status: true } });
  const mean = chunks.reduce((sum, c) => sum + (c.status === 'done' ? 1 : c.progress), 0) / Math.max(1, chunks.length);
  await setVideoProgress(videoId, mean * 0.95);
}

/** Marks a chunk done; answers whether every chunk of the video is done now. */
export async function finishChunk(videoId: string, index: number, storageKey: string): Promise<{ allDone: boolean }> {
  await db().videoChunk.updateMany({ where: { videoId, index, status: 'rendering' }, data: { status: 'done', progress: 1, storageKey } });
  const pending = await db().videoChunk.count({ where: { videoId, status: { not: 'done' } } });
  return { allDone: pending === 0 };
}

export async function failChunk(videoId: string, index: number, error: string): Promise<void> {
  await db().videoChunk.updateMany({
    where: { videoId, index, status: 'rendering' },
    data: { status: 'failed', error: error.slice(0, 2000) },
  });
}
