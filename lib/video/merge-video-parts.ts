import { lastAtOrBefore } from './chapters';
import type { TrajectoryVideoProps } from './schema';
import type { VideoHead, VideoPart, VideoPartRef } from './video-pieces';

/*
 * The browser's half of the split (lib/video/video-pieces.ts): which part a frame needs,
 * and the props with the parts loaded so far put back. Pure, and with no schema at run time:
 * the Player imports it, and instantiating the props' zod schemas cost the page 40 ms of its load.
 */

const NO_RUNS: Array<[string, number]> = [];

/** The part whose frames hold `frame`, null where the head alone draws it (title, closing, derivation, diff, result). */
export function partAt(head: Pick<VideoHead, 'parts'>, frame: number): VideoPartRef | null {
  const i = lastAtOrBefore(head.parts, frame, (p) => p.fromFrame);
  const ref = i >= 0 ? head.parts[i]! : null;
  return ref && frame < ref.toFrame ? ref : null;
}

/**
 * The props with the loaded parts put back (a new object: the Player redraws). With every part
 * loaded it equals the props the head was split from; a part of another split is refused.
 */
export function mergeVideoParts(head: VideoHead, loaded: Iterable<VideoPart>): TrajectoryVideoProps {
  const scenes = [...head.props.scenes];
  const terminal = head.props.terminal;
  // a line not loaded yet is drawn empty (as the stub screens are)
  const lines: NonNullable<TrajectoryVideoProps['terminal']>['lines'] = new Array(terminal ? head.terminalLines : 0).fill(NO_RUNS);
  for (const part of loaded) {
    if (part.rev !== head.rev) throw new Error(`video part ${part.part} is of split ${part.rev}, the head of ${head.rev}`);
    for (const [i, scene] of part.scenes) scenes[i] = scene;
    for (const [i, runs] of part.lines) lines[i] = runs;
  }
  return { ...head.props, scenes, terminal: terminal ? { styles: terminal.styles, lines } : null };
}
