import { z } from 'zod';
import { pacingSchema } from './pacing';

/**
 * The public API's video shapes (app/api/v1/videos…, the trajectory and assignment video routes):
 * what the routes parse and answer, published by lib/http/openapi/api-contract.ts.
 */

/** `?part=N` (0: the head) and `?rev=` (the head's, for parts 1..) of the video routes. */
export const videoPartQuery = z.object({
  part: z.coerce.number().int().min(0).max(100_000).default(0),
  rev: z.string().min(1).max(128).optional(),
});

/** GET /api/v1/trajectories/ID/video */
export const trajectoryVideoQuery = videoPartQuery.extend({ pacing: pacingSchema.default('skim') });

/** GET /api/v1/assignments/ID/video: `side` is the video's place on screen (pairwise: 0 left, 1 right). */
export const assignmentVideoQuery = videoPartQuery.extend({ side: z.coerce.number().int().min(0).max(1).default(0) });

/** A stored part of a video's props as the Player loads it (lib/video/video-pieces.ts): part 0 the head, 1.. its scenes. */
export const videoPartAnswer = z.record(z.string(), z.unknown());

/** 202 while the props are not stored yet: a worker derives them (ask again after Retry-After). */
export const videoPreparingAnswer = z.object({ status: z.literal('preparing') });

/** GET /api/v1/videos/ID: a render's status and progress. */
export const videoStatusAnswer = z.object({
  video: z.object({
    id: z.string(),
    trajectoryId: z.string(),
    status: z.enum(['queued', 'rendering', 'done', 'failed']),
    /** 0..1 */
    progress: z.number(),
    error: z.string().nullable(),
    frames: z.number().int().nullable(),
    fps: z.number().int().nullable(),
    durationSec: z.number().nullable(),
    sizeBytes: z.number().int().nullable(),
  }),
});
