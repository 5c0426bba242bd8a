'use client';

import { lazy, Suspense, useSyncExternalStore, type ComponentProps } from 'react';
import type { TrajectoryPlayer } from './trajectory-player';
import { OmittedSteps } from './omitted-steps';
import { frameClock } from '../ui/format';

type PlayerProps = ComponentProps<typeof TrajectoryPlayer>;

/**
 * The Player's code (Remotion, the composition and everything it draws with) is loaded once the
 * page around it is interactive: on a review page the transcript and the rubric are usable first
 * (issue 43 §5), and the Player's module, its first render and its first frame come after, in a
 * chunk of their own. Until then, and on the server, a poster of exactly the Player's size (the
 * same screen box and control row) holds its place, so nothing on the page moves when it arrives.
 */
const LazyTrajectoryPlayer = lazy(() => import('./trajectory-player').then((m) => ({ default: m.TrajectoryPlayer })));

const noSubscription = () => () => {};

/** false on the server and while hydrating, true once the page is hydrated (a hydration-safe "on the client"). */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function DeferredPlayer(props: PlayerProps) {
  const hydrated = useHydrated();
  const poster = <PlayerPoster video={props.video} compact={props.compact} chapterList={props.chapterList} />;
  if (!hydrated) return poster;
  return (
    <Suspense fallback={poster}>
      <LazyTrajectoryPlayer {...props} />
    </Suspense>
  );
}

/**
 * The Player's place while its code loads: the same grid, the same dark screen at the video's
 * aspect ratio, the same control row (its time, and a speed box the height of the real one, inert);
 * the compact layout without a chapter list only (the review pages'), else the screen alone.
 */
function PlayerPoster({ video, compact = false, chapterList = true }: Pick<PlayerProps, 'video' | 'compact' | 'chapterList'>) {
  return (
    <div className={`grid gap-3 ${compact ? '' : 'lg:grid-cols-[1fr_260px]'}`} data-testid="player-poster" aria-busy="true">
      <div className="min-w-0">
        <div className="relative overflow-hidden rounded-xl border border-zinc-200 bg-zinc-900 shadow-sm">
          <div
            role="status"
            className="flex items-center justify-center text-xs text-zinc-400"
            style={{ width: '100%', aspectRatio: `${video.width} / ${video.height}` }}
          >
            Loading the player…
          </div>
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-3 text-xs text-zinc-600" aria-hidden="true">
          <span className="font-mono tabular-nums">
            {frameClock(0, video.fps)} / {frameClock(video.durationInFrames, video.fps)} · frame 0
          </span>
          <span>paused</span>
          <span className="ml-auto flex items-center gap-1">
            Speed
            <select disabled tabIndex={-1} className="rounded border border-zinc-300 bg-white px-1 py-0.5" value="1">
              <option value="1">1×</option>
            </select>
          </span>
        </div>
      </div>
      {!chapterList && video.omittedSteps && video.omittedSteps.length > 0 ? <OmittedSteps video={video} /> : null}
    </div>
  );
}
