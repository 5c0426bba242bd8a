'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IntentLink } from '../ui/intent-link';
import { useEffect, useMemo, useRef, useState, useTransition } from 'react';
import { preload } from 'react-dom';
import { z } from 'zod';
import type { VideoHead } from '@/lib/video/video-pieces';
import { TrajectoryPlayer, type PlayerHandle } from './trajectory-player';
import type { ActionResult } from '@/lib/action-result';
import type { Pacing } from '@/lib/video/pacing';

export interface VideoStatus {
  id: string;
  status: 'queued' | 'rendering' | 'done' | 'failed';
  progress: number;
  error: string | null;
  sizeBytes: number | null;
}

/** the head as the route sends it, checked for its shape (its props were validated when derived and stored: a full check of a 1,000-step head costs the browser most of a second) */
const headEnvelope = z.object({
  props: z
    .object({
      version: z.number(),
      durationInFrames: z.number().int().positive(),
      fps: z.number().positive(),
      chapters: z.array(z.unknown()),
    })
    .loose(),
  rev: z.string().min(1),
  parts: z.array(z.object({ part: z.number().int().positive(), fromFrame: z.number(), toFrame: z.number(), bytes: z.number() })),
  terminalLines: z.number().int().nonnegative(),
});

const fileUrl = (id: string) => `/api/v1/videos/${id}/file`;

/**
 * The trajectory page's video: the Player plays at once (no render needed); the MP4 is
 * rendered by the worker on request (or after import), with a progress bar while it renders,
 * then offered for download. Buttons marked `data-seek-step` anywhere on the page (the
 * transcript's "▶ video") seek the player to that step.
 */
const rendering = (s: VideoStatus | null | undefined) => s?.status === 'queued' || s?.status === 'rendering';

export function VideoPanel({
  head: initialHead,
  videoUrl,
  initialStatus,
  requestRender,
  initialFrame = 0,
  pacing,
  pacingHrefs,
}: {
  /** the stored props' head (lib/video/video-pieces.ts) when the page has it; null: asked of `videoUrl` (202 while a worker prepares them) */
  head: VideoHead | null;
  /** GET: the head (202 while preparing); with `&part=N&rev=R` a part */
  videoUrl: string;
  initialStatus: VideoStatus | null;
  requestRender: () => Promise<ActionResult<VideoStatus>>;
  /** where the player starts (clamped to the video) */
  initialFrame?: number;
  /** the pacing the player and the MP4 are at, and the page at each pacing (read: every card readable at 1x; skim: the overview) */
  pacing: Pacing;
  pacingHrefs: Record<Pacing, string>;
}) {
  const player = useRef<PlayerHandle>(null);
  const queryClient = useQueryClient();
  // the server render puts a preload of the head in the page's <head>: the browser fetches it while
  // it loads and hydrates the page (seconds for a long run), not after, and the query's fetch below
  // takes that answer (same URL, mode and credentials: a plain fetch, no extra headers)
  if (initialHead === null) preload(videoUrl, { as: 'fetch', crossOrigin: 'anonymous' });
  // the head: the page's, else asked for every second while a worker derives the props
  const {
    data: head = null,
    error: headError,
    isFetched,
  } = useQuery({
    queryKey: ['video-head', videoUrl],
    initialData: initialHead ?? undefined,
    enabled: initialHead === null,
    queryFn: async (): Promise<VideoHead | null> => {
      const response = await fetch(videoUrl);
      if (response.status === 202) return null;
      if (!response.ok) throw new Error(`the video props did not load (HTTP ${response.status})`);
      return headEnvelope.parse(await response.json()) as VideoHead;
    },
    refetchInterval: (query) => (query.state.data ? false : 1000),
  });
  const parts = useMemo(
    () => (head ? { head, partUrl: (part: number, rev: string) => `${videoUrl}&part=${part}&rev=${encodeURIComponent(rev)}` } : undefined),
    [head, videoUrl],
  );
  const statusKey = ['video-status', pacing, initialStatus?.id ?? null] as const;
  // the MP4's status: the page's, then a render request's answer, re-read every 2 s while it renders
  const { data: status = null } = useQuery({
    queryKey: statusKey,
    initialData: initialStatus,
    queryFn: async (): Promise<VideoStatus | null> => {
      const current = queryClient.getQueryData<VideoStatus | null>(statusKey) ?? null;
      if (!current) return null;
      const response = await fetch(`/api/v1/videos/${current.id}`, { headers: { accept: 'application/json' } });
      return response.ok ? ((await response.json()) as { video: VideoStatus }).video : current;
    },
    refetchInterval: (query) => (rendering(query.state.data) ? 2000 : false),
  });
  const setStatus = (next: VideoStatus) => queryClient.setQueryData(statusKey, next);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const target = (e.target as HTMLElement).closest<HTMLElement>('[data-seek-step]');
      if (!target) return;
      e.preventDefault();
      player.current?.seekToStep(Number(target.dataset.seekStep));
      document.getElementById('video')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);

  return (
    <section id="video" aria-labelledby="video-title" className="scroll-mt-20">
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h2 id="video-title" className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
          Proof-of-work video
        </h2>
        <nav aria-label="Video pacing" className="flex overflow-hidden rounded-md border border-zinc-300 text-xs">
          {(['read', 'skim'] as const).map((p) => (
            <IntentLink
              key={p}
              href={pacingHrefs[p]}
              // prefetched on hover, not on view: each is the whole trajectory page again (server work for a long run, while this page asks for its video)
              aria-current={p === pacing ? 'true' : undefined}
              title={p === 'read' ? 'every card held long enough to read at 1x' : 'the ~90 s overview'}
              className={`px-2 py-1 ${p === pacing ? 'bg-zinc-800 text-white' : 'bg-white text-zinc-700 hover:bg-zinc-50'}`}
            >
              {p === 'read' ? 'Read pacing' : 'Skim pacing'}
            </IntentLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2 text-xs" data-testid="mp4-status">
          {status?.status === 'done' ? (
            <>
              <a
                href={fileUrl(status.id)}
                download
                className="rounded-md bg-indigo-600 px-3 py-1.5 font-semibold text-white hover:bg-indigo-500"
              >
                Download MP4 ({pacing}
                {status.sizeBytes ? `, ${(status.sizeBytes / 1024 / 1024).toFixed(1)} MB` : ''})
              </a>
              <button
                type="button"
                className="rounded-md border border-zinc-300 px-3 py-1.5 hover:bg-zinc-50"
                onClick={() => void navigator.clipboard?.writeText(new URL(fileUrl(status.id), location.href).href)}
              >
                Copy link
              </button>
            </>
          ) : status && (status.status === 'queued' || status.status === 'rendering') ? (
            <div className="flex items-center gap-2" role="status" aria-label="Rendering the MP4">
              <span className="text-zinc-600">
                {status.status === 'queued' ? 'MP4 queued…' : `Rendering MP4 ${Math.round(status.progress * 100)}%`}
              </span>
              <span className="h-2 w-40 overflow-hidden rounded bg-zinc-200">
                <span className="block h-full bg-indigo-500 transition-all" style={{ width: `${Math.max(2, status.progress * 100)}%` }} />
              </span>
            </div>
          ) : (
            <>
              {status?.status === 'failed' ? (
                <span className="text-red-700" title={status.error ?? ''}>
                  Render failed: {status.error}
                </span>
              ) : null}
              <button
                type="button"
                disabled={pending}
                className="rounded-md border border-zinc-300 px-3 py-1.5 hover:bg-zinc-50 disabled:opacity-60"
                onClick={() =>
                  start(async () => {
                    const result = await requestRender();
                    if (result.ok) {
                      setStatus(result.data);
                      setError(null);
                    } else setError(result.error.message);
                  })
                }
              >
                {status?.status === 'failed' ? 'Try again' : 'Render MP4'}
              </button>
            </>
          )}
          {error ? (
            <span role="alert" className="text-red-700">
              {error}
            </span>
          ) : null}
        </div>
      </div>
      {head && parts ? (
        <TrajectoryPlayer
          ref={player}
          video={head.props}
          parts={parts}
          initialFrame={Math.min(initialFrame, head.props.durationInFrames - 1)}
        />
      ) : (
        <div
          role="status"
          data-testid="video-preparing"
          className="flex aspect-video w-full items-center justify-center rounded-xl border border-zinc-200 bg-zinc-900 text-sm text-zinc-200"
        >
          {headError
            ? `The video could not be prepared: ${headError.message}`
            : isFetched
              ? 'Preparing the video… (a worker derives it once; it plays as soon as it is ready)'
              : 'Loading the video…'}
        </div>
      )}
    </section>
  );
}
