import { z } from 'zod';
import { loadTrajectory, type LoadedTrajectory } from '../trajectories/queries/trajectory-load';
import { findVideoProps, findVideoPropsPart, storeVideoProps, storeVideoPropsParts, type VideoPropsKey } from './queries/video-props';
import { AppError } from '../errors';
import type { CoverageMeasure } from '../review/coverage';
import { trajectoryVideoProps } from './props';
import type { Pacing } from './pacing';
import { VIDEO_PROPS_VERSION, type TrajectoryVideoProps } from './schema';
import { blindTranscript, type TranscriptStep } from './transcript';
import { stepReading } from '../review/transcript-reading';
import { splitVideoProps, type VideoHead } from './video-pieces';

export interface BlindSettings {
  hidePolicy: boolean;
  hideReward: boolean;
}

/** What a blind setting withholds, as the stored props are keyed: a blind view never reads an open row, nor the reverse. */
export type BlindMask = 'open' | 'policy' | 'reward' | 'both';

export function blindMaskOf(blind: BlindSettings | undefined): BlindMask {
  if (!blind || (!blind.hidePolicy && !blind.hideReward)) return 'open';
  return blind.hidePolicy && blind.hideReward ? 'both' : blind.hidePolicy ? 'policy' : 'reward';
}

/** A trajectory's video as one viewer sees it: the props, the blind transcript and what watch coverage is measured against. */
export interface TrajectoryVideo {
  props: TrajectoryVideoProps;
  transcript: TranscriptStep[];
  measure: CoverageMeasure;
}

/**
 * The video props of a loaded trajectory; `blind` withholds the policy and/or the reward (see
 * VideoOptions.blind); `pacing` is the campaign's (default skim: the lead's overview).
 */
export function videoPropsOfLoaded(loaded: LoadedTrajectory, blind?: BlindSettings, pacing: Pacing = 'skim'): TrajectoryVideoProps {
  return trajectoryVideoProps(loaded.trajectory, { criteria: loaded.criteria, labels: loaded.labels, blind, pacing });
}

function derive(loaded: LoadedTrajectory, blind: BlindSettings | undefined, pacing: Pacing): TrajectoryVideo {
  const props = videoPropsOfLoaded(loaded, blind, pacing);
  const transcript = blindTranscript(loaded.trajectory, { blind });
  return {
    props,
    transcript,
    measure: {
      totalFrames: props.durationInFrames,
      chapters: props.chapters.map((c) => ({ step: c.step, fromFrame: c.fromFrame, toFrame: c.toFrame })),
      steps: loaded.trajectory.steps.map((s) => s.index),
      // each step's reading load, for the server's clock checks of coverage (lib/review/attention.ts)
      reading: transcript.map((t) => {
        const r = stepReading(t);
        return [r.words, Math.round(r.fixedSeconds * 100) / 100] as const;
      }),
    },
  };
}

/**
 * A stored row's texts that a statement read beside something else (the blind view:
 * lib/review/queries/assignment-view.ts), as the video and transcript they hold, when they were read
 * under the mask `blind` names (a blind view never uses an open row, nor the reverse); null: look
 * them up (trajectoryVideo).
 */
export function storedVideoOf(
  stored: { blindMask: string; props: string; transcript: string } | null,
  blind: BlindSettings | undefined,
): { props: TrajectoryVideoProps; transcript: TranscriptStep[] } | null {
  if (!stored || stored.blindMask !== blindMaskOf(blind)) return null;
  return { props: JSON.parse(stored.props) as TrajectoryVideoProps, transcript: JSON.parse(stored.transcript) as TranscriptStep[] };
}

const storedMeasure = z.object({
  chapters: z.array(z.object({ step: z.number(), fromFrame: z.number(), toFrame: z.number() })),
  steps: z.array(z.number()),
  reading: z.array(z.tuple([z.number(), z.number()])).optional(),
});

export interface VideoOf {
  blind?: BlindSettings;
  pacing?: Pacing;
  /** derive anew and overwrite the stored row (a render: what it draws is what the props say now) */
  fresh?: boolean;
}

/**
 * A trajectory's video props, blind transcript and coverage measure at a pacing and blind
 * setting: read from video_props while the inputs they were derived from are unchanged (see
 * lib/video/queries/video-props.ts), else derived once (lib/video/props.ts, pure) and stored.
 * NOT_FOUND for an unknown trajectory.
 */
export async function trajectoryVideo(trajectoryId: string, options: VideoOf = {}): Promise<TrajectoryVideo> {
  const pacing = options.pacing ?? 'skim';
  const key: VideoPropsKey = { trajectoryId, propsVersion: String(VIDEO_PROPS_VERSION), pacing, blindMask: blindMaskOf(options.blind) };
  const found = await findVideoProps(key);
  if (!found) throw new AppError('NOT_FOUND', 'No such trajectory');
  if (found.stored && !options.fresh) {
    const m = storedMeasure.parse(found.stored.measure);
    return {
      props: JSON.parse(found.stored.props) as TrajectoryVideoProps,
      transcript: JSON.parse(found.stored.transcript) as TranscriptStep[],
      measure: { totalFrames: found.stored.durationInFrames, ...m },
    };
  }
  const loaded = await loadTrajectory(trajectoryId);
  if (!loaded) throw new AppError('NOT_FOUND', 'No such trajectory');
  const video = derive(loaded, options.blind, pacing);
  await storeVideoProps(
    key,
    found.inputsHash,
    {
      props: JSON.stringify(video.props),
      transcript: JSON.stringify(video.transcript),
      durationInFrames: video.measure.totalFrames,
      measure: { chapters: video.measure.chapters, steps: video.measure.steps, reading: video.measure.reading },
    },
    splitTexts(video.props, found.inputsHash),
  );
  return video;
}

/** [head, part 1, ...] as the store keeps them */
function splitTexts(props: TrajectoryVideoProps, inputsHash: string): string[] {
  const { head, parts } = splitVideoProps(props, inputsHash);
  return [JSON.stringify(head), ...parts.map((p) => JSON.stringify(p))];
}

const keyOf = (trajectoryId: string, options: VideoOf): VideoPropsKey => ({
  trajectoryId,
  propsVersion: String(VIDEO_PROPS_VERSION),
  pacing: options.pacing ?? 'skim',
  blindMask: blindMaskOf(options.blind),
});

/**
 * One part of a trajectory's stored video split (lib/video/video-pieces.ts) as JSON
 * text, under a pacing and blind mask: 0 the head, 1.. the parts. Read from the store, never
 * derived here: null when the props are not stored (or are stale: re-derived on the next claim,
 * render or `prepareVideoProps`). A row stored before splits were is split from its stored props
 * once, then kept. `rev` (for parts 1..): the head's; a part of another split is a CONFLICT
 * (the props were derived again since the head was read: reload it). NOT_FOUND for an unknown
 * trajectory or part.
 */
export async function storedVideoPart(trajectoryId: string, options: VideoOf, part: number, rev?: string): Promise<string | null> {
  const key = keyOf(trajectoryId, options);
  const found = await findVideoPropsPart(key, part);
  if (!found.trajectory) throw new AppError('NOT_FOUND', 'No such trajectory');
  if (part > 0 && rev !== undefined && rev !== found.inputsHash)
    throw new AppError('CONFLICT', 'The video was prepared again since this page loaded: reload it.');
  if (found.body !== null) return found.body;
  if (!found.stored) return null;
  // a row of an older Witness: split what it stored (no derivation), keep the split
  const stored = await findVideoProps(key);
  if (!stored?.stored || stored.inputsHash !== found.inputsHash) return null;
  const texts = splitTexts(JSON.parse(stored.stored.props) as TrajectoryVideoProps, found.inputsHash);
  await storeVideoPropsParts(key, found.inputsHash, texts);
  const body = texts[part];
  if (body === undefined) throw new AppError('NOT_FOUND', `The video has no part ${part}.`);
  return body;
}

/** The head of a trajectory's stored video (see storedVideoPart), null when its props are not stored. */
export async function storedVideoHead(trajectoryId: string, options: VideoOf = {}): Promise<VideoHead | null> {
  const text = await storedVideoPart(trajectoryId, options, 0);
  return text === null ? null : (JSON.parse(text) as VideoHead);
}

/**
 * The head of a trajectory's video and its blind transcript under a pacing and blind setting,
 * for a review page (the Player loads the rest): read from the store, derived and stored on
 * first sight as the blind view does (trajectoryVideo). NOT_FOUND for an unknown trajectory.
 */
export async function trajectoryVideoHead(
  trajectoryId: string,
  options: VideoOf = {},
): Promise<{ head: VideoHead; transcript: TranscriptStep[] }> {
  const key = keyOf(trajectoryId, options);
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await findVideoPropsPart(key, 0, true);
    if (!found.trajectory) throw new AppError('NOT_FOUND', 'No such trajectory');
    if (found.stored && found.transcript !== null) {
      const head = found.body ?? (await storedVideoPart(trajectoryId, options, 0));
      if (head !== null) return { head: JSON.parse(head) as VideoHead, transcript: JSON.parse(found.transcript) as TranscriptStep[] };
    }
    await trajectoryVideo(trajectoryId, options);
  }
  throw new AppError('CONFLICT', 'The trajectory changed while its video was prepared: reload the page.');
}

/** Derives and stores a trajectory's video props at a pacing and blind setting unless they are stored and current (the video.props job). */
export async function prepareVideoProps(trajectoryId: string, options: VideoOf = {}): Promise<{ derived: boolean }> {
  if ((await storedVideoPart(trajectoryId, options, 0)) !== null) return { derived: false };
  await trajectoryVideo(trajectoryId, { ...options, fresh: true });
  return { derived: true };
}

/** The video props of a stored trajectory (stored once per inputs, see trajectoryVideo). */
export async function videoPropsFor(trajectoryId: string, blind?: BlindSettings, pacing: Pacing = 'skim'): Promise<TrajectoryVideoProps> {
  return (await trajectoryVideo(trajectoryId, { blind, pacing })).props;
}

/**
 * A stored row's measure that a statement read beside something else (a submit's target:
 * lib/review/queries/label-submits.ts), as the coverage measure it holds, when it was read under the
 * mask `blind` names; null: look it up (videoMeasureFor).
 */
export function storedMeasureOf(
  stored: { blindMask: string; durationInFrames: number; measure: unknown } | null,
  blind: BlindSettings | undefined,
): CoverageMeasure | null {
  if (!stored || stored.blindMask !== blindMaskOf(blind)) return null;
  return { totalFrames: stored.durationInFrames, ...storedMeasure.parse(stored.measure) };
}

/** The props a render draws: derived from the rows as they are now (and stored for the next reader). */
export async function freshVideoPropsFor(trajectoryId: string, pacing: Pacing = 'skim'): Promise<TrajectoryVideoProps> {
  return (await trajectoryVideo(trajectoryId, { pacing, fresh: true })).props;
}

/**
 * What a trajectory's coverage is measured against, as the viewer under `blind` saw it: its
 * video's length, where each step shows, its steps. Reads only the measure of a stored row.
 */
export async function videoMeasureFor(trajectoryId: string, pacing: Pacing = 'skim', blind?: BlindSettings): Promise<CoverageMeasure> {
  const found = await findVideoProps(
    { trajectoryId, propsVersion: String(VIDEO_PROPS_VERSION), pacing, blindMask: blindMaskOf(blind) },
    true,
  );
  if (!found) throw new AppError('NOT_FOUND', 'No such trajectory');
  if (found.stored) return { totalFrames: found.stored.durationInFrames, ...storedMeasure.parse(found.stored.measure) };
  return (await trajectoryVideo(trajectoryId, { blind, pacing })).measure;
}
