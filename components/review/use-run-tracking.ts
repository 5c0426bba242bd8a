'use client';

import { useCallback, useMemo, useState, type RefObject } from 'react';
import { measureCoverage, type CoverageBasis, type CoverageMeasure, type StoredCoverage } from '@/lib/review/coverage';
import { ReadingTracker } from '@/lib/review/transcript-reading';
import { WatchTracker } from '@/lib/review/watch-tracker';
import { chapterAt } from '@/lib/video/chapters';
import type { TrajectoryVideoProps } from '@/lib/video/schema';
import type { TranscriptStep } from '@/lib/video/transcript';
import type { PlayedRange, PlayerHandle } from '../video/trajectory-player';

/**
 * The proof of reading of one run on the review and compare pages: a watch tracker for its
 * video and a reading tracker for its transcript (one each for the page's life), the coverage
 * they add up to on the campaign's basis, the step the video is on and the steps read, and the
 * player and transcript callbacks that feed them (stable: the player re-subscribes when they
 * change). Render reads no ref: what the page shows is kept in state as the trackers change.
 */
export function useRunTracking({
  playerRef,
  video,
  transcript,
  basis,
  same,
  earned,
  wpm,
}: {
  /** the run's player (the page drives it too) */
  playerRef: RefObject<PlayerHandle | null>;
  video: TrajectoryVideoProps;
  /** the run's blind transcript (memoised by the page: the reading tracker is made from the first) */
  transcript: TranscriptStep[];
  basis: CoverageBasis;
  /** whether a new coverage changes nothing the page shows: the old one is kept (no re-render); a stable function */
  same: (old: StoredCoverage, next: StoredCoverage) => boolean;
  /** what the server kept of this run's coverage (a reload starts from it) */
  earned?: { ranges: [number, number][]; transcriptSteps: number[] };
  /** the campaign's reading speed (words a minute) */
  wpm?: number;
}) {
  // made once (a ref's initial value would be made again, and thrown away, at every render: the
  // reading tracker measures every step of the transcript)
  const [tracker] = useState(() => new WatchTracker(video.durationInFrames, earned?.ranges));
  const [reader] = useState(() => new ReadingTracker(transcript, { wpm, alreadyRead: earned?.transcriptSteps }));
  const measure = useMemo<CoverageMeasure>(
    () => ({ totalFrames: video.durationInFrames, chapters: video.chapters, steps: transcript.map((s) => s.index) }),
    [video, transcript],
  );
  // a reload starts from what the server kept (computed from the props, not the trackers: render reads no ref)
  const [readSteps, setReadSteps] = useState<ReadonlySet<number>>(
    () => new Set((earned?.transcriptSteps ?? []).filter((s) => transcript.some((t) => t.index === s))),
  );
  const [activeStep, setActiveStep] = useState<number | null>(null);
  const [covered, setCovered] = useState<StoredCoverage | null>(() =>
    earned && (earned.ranges.length > 0 || earned.transcriptSteps.length > 0)
      ? measureCoverage({ ranges: earned.ranges, speeds: [], seeks: 0, transcriptSteps: earned.transcriptSteps }, measure, basis)
      : null,
  );

  /** what the submit sends for this run: the stretches played and the steps read (the server measures the share itself) */
  const report = useCallback(() => ({ ...tracker.report(), transcriptSteps: reader.read() }), [tracker, reader]);
  /** the coverage now, on the campaign's basis (what the server will count) */
  const coverage = useCallback(() => measureCoverage(report(), measure, basis), [report, measure, basis]);
  const refresh = useCallback(() => {
    const next = coverage();
    setCovered((old) => (old && same(old, next) ? old : next));
  }, [coverage, same]);

  const onPlayed = useCallback(
    (r: PlayedRange) => {
      tracker.played(r.from, r.to, r.rate);
      refresh();
    },
    [tracker, refresh],
  );
  const onSeek = useCallback(() => tracker.seeked(), [tracker]);
  const onFrame = useCallback((f: number) => setActiveStep(chapterAt(video.chapters, f)?.step ?? null), [video.chapters]);
  const onReading = useCallback(
    (inView: number[], seconds: number) => {
      if (!reader.tick(inView, seconds)) return;
      setReadSteps(new Set(reader.read()));
      refresh();
    },
    [reader, refresh],
  );
  const onSeekStep = useCallback((step: number) => playerRef.current?.seekToStep(step), [playerRef]);
  /** a moment of this run to pin a note to: the frame and the step it shows */
  const momentAt = useCallback((frame: number) => ({ frame, stepIndex: chapterAt(video.chapters, frame)?.step ?? null }), [video.chapters]);

  return {
    covered,
    report,
    coverage,
    momentAt,
    /** for the run's TrajectoryPlayer */
    playerProps: { ref: playerRef, video, onPlayed, onSeek, onFrame },
    /** for the run's BlindTranscript (the page adds onPinStep) */
    transcriptProps: { steps: transcript, activeStep, readSteps, onSeekStep, onReading },
  };
}
