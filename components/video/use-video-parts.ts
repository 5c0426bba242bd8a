'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { mergeVideoParts, partAt } from '@/lib/video/merge-video-parts';
import type { VideoHead, VideoPart } from '@/lib/video/video-pieces';
import type { TrajectoryVideoProps } from '@/lib/video/schema';

/** Where the Player loads a video's parts from: the head it starts with, and each part's URL. */
export interface VideoParts {
  head: VideoHead;
  partUrl: (part: number, rev: string) => string;
}

/** A review page's video `side` (0, or 1 on the right of a comparison), loaded from the caller's own assignment under its blind mask. */
export function assignmentVideoParts(assignmentId: string, head: VideoHead, side: 0 | 1): VideoParts {
  return {
    head,
    partUrl: (part, rev) =>
      `/api/v1/assignments/${encodeURIComponent(assignmentId)}/video?side=${side}&part=${part}&rev=${encodeURIComponent(rev)}`,
  };
}

/**
 * A part as the route sends it, checked for its shape (part, rev, indexed scenes and lines):
 * the scenes were validated when the props were derived and stored, and checking every field of
 * a 256 KB part again costs the browser a few hundred ms while it plays.
 */
const partEnvelope = z.object({
  part: z.number().int().positive(),
  rev: z.string().min(1),
  scenes: z.array(
    z.tuple([z.number().int().nonnegative(), z.object({ kind: z.string(), from: z.number(), duration: z.number() }).loose()]),
  ),
  lines: z.array(z.tuple([z.number().int().nonnegative(), z.array(z.tuple([z.string(), z.number()]))])),
});

/** seconds of video ahead of the playhead that are loaded while it plays */
const LOOKAHEAD_SECONDS = 20;

/**
 * The props the Player draws, built up from a head as the parts it needs arrive (see
 * lib/video/video-pieces.ts): the first part at once, then the part under the playhead
 * and the one after it. `ready(frame)` says whether the frame can be drawn as the MP4 would
 * (false while its part is loading); `need(frame)` asks for its part. `failed`: a part could not
 * be loaded (the message says which and why).
 */
export function useVideoParts(parts: VideoParts | undefined, fallback: TrajectoryVideoProps) {
  const [loaded, setLoaded] = useState<ReadonlyMap<number, VideoPart>>(() => new Map());
  const [failed, setFailed] = useState<string | null>(null);
  const pending = useRef(new Set<number>());
  const have = useRef(new Set<number>());
  const head = parts?.head;
  const partUrl = parts?.partUrl;

  const load = useCallback(
    (part: number) => {
      if (!head || !partUrl || pending.current.has(part) || have.current.has(part)) return;
      pending.current.add(part);
      void (async () => {
        try {
          const response = await fetch(partUrl(part, head.rev), { headers: { accept: 'application/json' } });
          if (!response.ok) {
            const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
            throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
          }
          const piece = partEnvelope.parse(await response.json()) as VideoPart;
          have.current.add(part);
          setLoaded((m) => new Map(m).set(part, piece));
        } catch (error) {
          setFailed(`Part ${part} of the video did not load: ${(error as Error).message}`);
        } finally {
          pending.current.delete(part);
        }
      })();
    },
    [head, partUrl],
  );

  const need = useCallback(
    (frame: number) => {
      if (!head) return;
      const here = partAt(head, frame);
      if (here) load(here.part);
      const ahead = partAt(head, frame + LOOKAHEAD_SECONDS * head.props.fps);
      if (ahead) load(ahead.part);
      // the part after the one under the playhead (a part may be shorter than the lookahead)
      const next = head.parts.find((p) => p.fromFrame >= (here?.toFrame ?? frame));
      if (next) load(next.part);
    },
    [head, load],
  );

  const ready = useCallback(
    (frame: number) => {
      if (!head) return true;
      const here = partAt(head, frame);
      return here === null || loaded.has(here.part);
    },
    [head, loaded],
  );

  // the first part comes with the page: play starts at once
  useEffect(() => {
    if (head?.parts[0]) load(head.parts[0].part);
  }, [head, load]);

  const props = useMemo(() => (head ? mergeVideoParts(head, loaded.values()) : fallback), [head, loaded, fallback]);
  return { props, ready, need, failed };
}
