'use client';

import { Player, type PlayerRef } from '@remotion/player';
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { trimUnclosedMath } from '@/lib/rich-text/markdown-source';
import { chapterAt } from '@/lib/video/chapters';
import type { Chapter, TrajectoryVideoProps } from '@/lib/video/schema';
import { TrajectoryVideo } from '@/render/compositions/trajectory-video/trajectory-video';
import { frameClock, stepNumber } from '../ui/format';
import { RichText } from '@/render/ui/rich-text';
import { OmittedSteps } from './omitted-steps';
import { useVideoParts, type VideoParts } from './use-video-parts';

export interface PlayerHandle {
  seekToFrame: (frame: number) => void;
  seekToStep: (step: number) => void;
  currentFrame: () => number;
  pause: () => void;
  play: () => void;
  toggle: () => void;
  isPlaying: () => boolean;
  /** jump to the previous/next step's start */
  stepBy: (delta: 1 | -1) => void;
  rate: () => number;
  setRate: (rate: number) => void;
}

/** a chapter's label, typeset once (the list re-renders at every frame) */
const ChapterLabel = memo(function ChapterLabel({ label }: { label: string }) {
  return <RichText text={trimUnclosedMath(label)} inline className="min-w-0 flex-1 truncate" />;
});

/**
 * Where a seek to a step lands: a few frames into its chapter, past the scene's fade-in, so the
 * step is readable at once (its first frame is the card still transparent: a blank frame when paused).
 */
const readableFrame = (c: Chapter) => c.fromFrame + Math.min(10, Math.floor((c.toFrame - c.fromFrame) / 2));

/** one chapter of the list: re-rendered only when it becomes or stops being the active one (not at every frame) */
const ChapterRow = memo(function ChapterRow({
  chapter,
  active,
  fps,
  onSeek,
}: {
  chapter: Chapter;
  active: boolean;
  fps: number;
  onSeek: (step: number) => void;
}) {
  return (
    <li data-step={chapter.step} className="pb-0.5" style={{ height: CHAPTER_ROW_PX }}>
      <button
        type="button"
        onClick={() => onSeek(chapter.step)}
        aria-current={active ? 'step' : undefined}
        className={`flex h-full w-full items-baseline gap-2 rounded px-2 py-1 text-left text-xs ${active ? 'bg-indigo-50 font-medium text-indigo-900 ring-1 ring-indigo-200' : 'text-zinc-700 hover:bg-zinc-100'}`}
      >
        <span className="font-mono text-zinc-400">#{stepNumber(chapter.step)}</span>
        <ChapterLabel label={chapter.label} />
        <span className="font-mono text-zinc-400">{frameClock(chapter.fromFrame, fps)}</span>
      </button>
    </li>
  );
});

/**
 * The chapter list shows rows around its view only (a 1,000-step run has 1,000 chapters): rows
 * of a fixed height, WINDOW_ROWS of them from a little above the first row in view, with empty
 * space above and below standing for the rest.
 */
const CHAPTER_ROW_PX = 26;
const WINDOW_ABOVE = 8;
/**
 * The list shows 17 rows at most (420 px), and the window moves when the first row in view is
 * WINDOW_ABOVE / 2 rows from where it was: 1.5 * WINDOW_ABOVE + 17 rows keep every row in view
 * drawn (each row's label is typeset: fewer rows, less of the page's start)
 */
const WINDOW_ROWS = 30;

export interface PlayedRange {
  from: number;
  to: number;
  rate: number;
}

const SPEEDS = [0.5, 1, 1.5, 2, 3] as const;

/**
 * The Remotion Player, drawn again only when its own props change: the panel around it re-renders
 * at every frame (the time, the chapter list), and each time the Player would render the
 * composition (its rail alone has a bar a chapter) a second time for that frame.
 */
const StillPlayer = memo(Player) as typeof Player;

/**
 * The proof-of-work video, playing at once in the browser (Remotion Player renders the same
 * composition the worker renders to MP4). Chapters = steps: the list follows the playhead, and
 * clicking a step seeks to its moment. Keyboard (when the player area has focus): Space/K play,
 * J/L back/forward 5 s, [ ] previous/next step, , . one frame, 1-5 speed.
 */
export const TrajectoryPlayer = forwardRef<
  PlayerHandle,
  {
    video: TrajectoryVideoProps;
    initialFrame?: number;
    onFrame?: (frame: number) => void;
    /** reports each stretch actually played (for watch coverage) */
    onPlayed?: (range: PlayedRange) => void;
    onSeek?: () => void;
    compact?: boolean;
    /** false: the page handles every key itself (review pages, where digits answer questions) */
    keyboard?: boolean;
    /** the speeds offered (default 0.5-3×) */
    speeds?: readonly number[];
    /** false: stay on the closing card when the video ends (review pages) */
    rewindAtEnd?: boolean;
    /**
     * `video` is a head (lib/video/video-pieces.ts): the scenes are loaded from these
     * URLs as the playhead needs them, and playback waits while the part it reaches loads
     */
    parts?: VideoParts;
    /** false: no chapter list (the review pages' transcript beside the player is the list of steps); omitted steps still named */
    chapterList?: boolean;
  }
>(function TrajectoryPlayer(
  {
    video,
    initialFrame = 0,
    onFrame,
    onPlayed,
    onSeek,
    compact = false,
    keyboard = true,
    speeds = SPEEDS,
    rewindAtEnd = true,
    parts,
    chapterList = true,
  },
  ref,
) {
  const player = useRef<PlayerRef>(null);
  const pieced = useVideoParts(parts, video);
  const { need, ready } = pieced;
  // waiting for the part under the playhead: paused by us, resumed when it arrives
  const [waiting, setWaiting] = useState(false);
  const readyRef = useRef(ready);
  const needRef = useRef(need);
  useEffect(() => {
    readyRef.current = ready;
    needRef.current = need;
  }, [ready, need]);
  const [frame, setFrame] = useState(initialFrame);
  const [rate, setRate] = useState(1);
  const [playing, setPlaying] = useState(false);
  const lastFrame = useRef(initialFrame);
  const rateRef = useRef(1);
  rateRef.current = rate;
  // watched counts only while the video is on screen (half of it in the window) and the tab is visible (issue 43 §1)
  const screen = useRef<HTMLDivElement>(null);
  const onScreen = useRef(true);
  useEffect(() => {
    const el = screen.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) onScreen.current = e.isIntersecting && e.intersectionRatio >= 0.5;
      },
      { threshold: [0, 0.25, 0.5, 0.75, 1] },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const seekToFrame = useCallback(
    (f: number) => {
      const clamped = Math.max(0, Math.min(video.durationInFrames - 1, Math.round(f)));
      need(clamped);
      player.current?.seekTo(clamped);
      lastFrame.current = clamped;
      setFrame(clamped);
      onSeek?.();
    },
    [video.durationInFrames, onSeek, need],
  );
  const seekToStep = useCallback(
    (step: number) => {
      const chapter = video.chapters.find((c) => c.step === step);
      if (chapter) seekToFrame(readableFrame(chapter));
    },
    [video.chapters, seekToFrame],
  );
  const stepBy = useCallback(
    (delta: 1 | -1) => {
      const f = lastFrame.current;
      const current = chapterAt(video.chapters, f);
      const index = current ? video.chapters.indexOf(current) : -1;
      const target =
        delta === 1
          ? (video.chapters[index + 1] ?? (index === -1 ? video.chapters.find((c) => c.fromFrame > f) : undefined))
          : video.chapters[Math.max(0, index - 1)];
      if (target) seekToFrame(readableFrame(target));
    },
    [video.chapters, seekToFrame],
  );
  useImperativeHandle(
    ref,
    () => ({
      seekToFrame,
      seekToStep,
      stepBy,
      currentFrame: () => lastFrame.current,
      pause: () => player.current?.pause(),
      play: () => player.current?.play(),
      toggle: () => player.current?.toggle(),
      isPlaying: () => player.current?.isPlaying() ?? false,
      rate: () => rateRef.current,
      setRate: (r: number) => setRate(r),
    }),
    [seekToFrame, seekToStep, stepBy],
  );

  useEffect(() => {
    const p = player.current;
    if (!p) return;
    let lastAt = performance.now();
    const onFrameUpdate = (e: { detail: { frame: number } }) => {
      const f = e.detail.frame;
      const now = performance.now();
      // forward frames while playing are "watched", however coarse the updates on a busy
      // machine, as long as the jump fits the real time elapsed at this rate; longer jumps are seeks
      const allowed = Math.ceil(((now - lastAt) / 1000) * video.fps * rateRef.current * 1.5) + 4;
      const watched = onScreen.current && document.visibilityState === 'visible';
      if (watched && f > lastFrame.current && f - lastFrame.current <= allowed && p.isPlaying())
        onPlayed?.({ from: lastFrame.current, to: f + 1, rate: rateRef.current });
      lastFrame.current = f;
      lastAt = now;
      setFrame(f);
      onFrame?.(f);
      needRef.current(f);
      if (!readyRef.current(f) && p.isPlaying()) {
        p.pause();
        setWaiting(true);
      }
    };
    const onSeeked = (e: { detail: { frame: number } }) => {
      // a seek from the player's own controls (ours already moved lastFrame)
      if (e.detail.frame !== lastFrame.current) onSeek?.();
      lastFrame.current = e.detail.frame;
      lastAt = performance.now();
    };
    const onPlay = () => {
      lastAt = performance.now();
      setPlaying(true);
      needRef.current(lastFrame.current);
      if (!readyRef.current(lastFrame.current)) {
        p.pause();
        setWaiting(true);
      }
    };
    const onPause = () => setPlaying(false);
    p.addEventListener('frameupdate', onFrameUpdate);
    p.addEventListener('seeked', onSeeked);
    p.addEventListener('play', onPlay);
    p.addEventListener('pause', onPause);
    return () => {
      p.removeEventListener('frameupdate', onFrameUpdate);
      p.removeEventListener('seeked', onSeeked);
      p.removeEventListener('play', onPlay);
      p.removeEventListener('pause', onPause);
    };
  }, [onFrame, onPlayed, onSeek, video.fps]);

  // the part arrived: play on from where it waited
  useEffect(() => {
    if (waiting && ready(lastFrame.current)) {
      setWaiting(false);
      player.current?.play();
    }
  }, [waiting, ready]);

  const active = chapterAt(video.chapters, frame);
  const listRef = useRef<HTMLOListElement>(null);
  // the first chapter row in the list's view: the rows around it are on the page
  const [firstRow, setFirstRow] = useState(0);
  const onListScroll = () => {
    const list = listRef.current;
    if (!list) return;
    const row = Math.floor(list.scrollTop / CHAPTER_ROW_PX);
    if (Math.abs(row - firstRow) >= WINDOW_ABOVE / 2) setFirstRow(row);
  };
  const activeIndex = active ? video.chapters.indexOf(active) : -1;
  useEffect(() => {
    const list = listRef.current;
    if (activeIndex < 0 || !list) return;
    const top = activeIndex * CHAPTER_ROW_PX;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - CHAPTER_ROW_PX) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      setFirstRow(Math.floor(list.scrollTop / CHAPTER_ROW_PX));
    }
  }, [activeIndex]);
  const windowFrom = Math.max(0, Math.min(firstRow - WINDOW_ABOVE, video.chapters.length - WINDOW_ROWS));
  const windowTo = Math.min(video.chapters.length, windowFrom + WINDOW_ROWS);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!keyboard) return;
    const target = e.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    const p = player.current;
    if (!p) return;
    const fps = video.fps;
    const handled = (() => {
      switch (e.key) {
        case ' ':
        case 'k':
          p.toggle();
          return true;
        case 'j':
          seekToFrame(frame - 5 * fps);
          return true;
        case 'l':
          seekToFrame(frame + 5 * fps);
          return true;
        case ',':
          seekToFrame(frame - 1);
          return true;
        case '.':
          seekToFrame(frame + 1);
          return true;
        case '[':
          stepBy(-1);
          return true;
        case ']':
          stepBy(1);
          return true;
        default:
          if (/^[1-5]$/.test(e.key)) {
            setRate(speeds[Number(e.key) - 1] ?? rate);
            return true;
          }
          return false;
      }
    })();
    if (handled) e.preventDefault();
  };

  const inputProps = pieced.props;
  const drawn = ready(frame);
  const playerStyle = useMemo(() => ({ width: '100%', aspectRatio: `${video.width} / ${video.height}` }), [video.width, video.height]);

  return (
    <div className={`grid gap-3 ${compact ? '' : 'lg:grid-cols-[1fr_260px]'}`} onKeyDown={onKeyDown} data-testid="trajectory-player">
      <div className="min-w-0">
        <div
          ref={screen}
          className="relative overflow-hidden rounded-xl border border-zinc-200 bg-zinc-900 shadow-sm"
          tabIndex={0}
          aria-label="Proof-of-work video (Space to play, [ ] to jump between steps)"
        >
          <StillPlayer
            ref={player}
            component={TrajectoryVideo}
            inputProps={inputProps}
            durationInFrames={video.durationInFrames}
            fps={video.fps}
            compositionWidth={video.width}
            compositionHeight={video.height}
            style={playerStyle}
            controls
            clickToPlay
            spaceKeyToPlayOrPause={keyboard}
            moveToBeginningWhenEnded={rewindAtEnd}
            initialFrame={initialFrame}
            playbackRate={rate}
            // the video has no sound: no volume control, and no AudioContext nor shared audio tags made on mount
            // (Remotion makes its AudioContext unless muted: 60-70 ms of the page's load on this machine), nor the
            // remembered volume read from localStorage (a page's first access: 30 ms)
            initiallyMuted
            initialVolume={0}
            showVolumeControls={false}
            numberOfSharedAudioTags={0}
            acknowledgeRemotionLicense
          />
          {!drawn || pieced.failed ? (
            <div
              role="status"
              data-testid="video-part-loading"
              className="pointer-events-none absolute inset-x-0 top-0 flex justify-center p-3 text-xs font-medium text-white"
            >
              <span className={`rounded-md px-2 py-1 shadow ${pieced.failed ? 'bg-red-700' : 'bg-zinc-800/90'}`}>
                {pieced.failed ?? 'Loading this part of the video…'}
              </span>
            </div>
          ) : null}
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-3 text-xs text-zinc-600">
          <span className="font-mono tabular-nums" data-testid="player-time">
            {frameClock(frame, video.fps)} / {frameClock(video.durationInFrames, video.fps)} · frame {frame}
          </span>
          <span>{playing ? 'playing' : 'paused'}</span>
          <label className="ml-auto flex items-center gap-1">
            Speed
            <select
              value={rate}
              onChange={(e) => setRate(Number(e.target.value))}
              className="rounded border border-zinc-300 bg-white px-1 py-0.5"
              aria-label="Playback speed"
            >
              {speeds.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
          {keyboard ? <span className="hidden text-zinc-400 sm:inline">Space play · J/L ±5 s · [ ] step · 1-5 speed</span> : null}
        </div>
      </div>
      {!chapterList ? (
        video.omittedSteps && video.omittedSteps.length > 0 ? (
          <OmittedSteps video={video} />
        ) : null
      ) : (
        <nav aria-label="Steps in the video" className="min-w-0">
          <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500">Chapters</p>
          <ol ref={listRef} onScroll={onListScroll} className={`relative overflow-y-auto pr-1 ${compact ? 'max-h-40' : 'max-h-[420px]'}`}>
            {windowFrom > 0 ? <li aria-hidden style={{ height: windowFrom * CHAPTER_ROW_PX }} /> : null}
            {video.chapters.slice(windowFrom, windowTo).map((c) => (
              <ChapterRow key={c.step} chapter={c} active={active?.step === c.step} fps={video.fps} onSeek={seekToStep} />
            ))}
            {windowTo < video.chapters.length ? (
              <li aria-hidden style={{ height: (video.chapters.length - windowTo) * CHAPTER_ROW_PX }} />
            ) : null}
          </ol>
          {video.omittedSteps && video.omittedSteps.length > 0 ? <OmittedSteps video={video} /> : null}
        </nav>
      )}
    </div>
  );
});
