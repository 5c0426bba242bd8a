'use client';

import { useCallback, useMemo, useRef, useState } from 'react';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import { nextSpeed, preferenceForDigit } from '@/lib/review/shortcuts';
import type { StoredCoverage } from '@/lib/review/coverage';
import { coverageShortfall } from '@/lib/review/watch-tracker';
import { evidenceFrame, frameForStep } from '@/lib/video/chapters';
import { firstDivergentStep } from '@/lib/video/first-divergent-step';
import type { PlayerHandle } from '../video/trajectory-player';
import { assignmentVideoParts } from '../video/use-video-parts';
import type { VideoHead } from '@/lib/video/video-pieces';
import { BlindTranscript } from './blind-transcript';
import { EvidenceNotes } from './evidence-notes';
import { REVIEW_SCREEN, shortfallVerb } from './review-workspace';
import { SubmitBar } from './submit-bar';
import { TaskPanel } from './task-panel';
import type { TaskTypeset } from './task-typeset';
import { REVIEW_SPEEDS, useAssignmentFlow, type AssignmentActions } from './use-assignment-flow';
import { useReviewShortcuts } from './use-review-shortcuts';
import { useRunTracking } from './use-run-tracking';
import { useProgressSaver } from './use-progress-saver';
import { ReviewPlayer, ShortcutsButton, WorkspaceDialogs } from './workspace-bits';
import { DeferredCriterionText } from '../ui/deferred-text';
import { DataTable } from '../ui/table';
import { formatClock } from '../ui/format';

type Side = 'left' | 'right';

export type CompareActions = AssignmentActions<{ comparison: { id: string; revision: number; duplicate: boolean } }>;

const PREFERENCES = [
  { value: -2, label: 'Left much better' },
  { value: -1, label: 'Left better' },
  { value: 0, label: 'About equal' },
  { value: 1, label: 'Right better' },
  { value: 2, label: 'Right much better' },
] as const;

const SIDE_LABELS = { a: 'left', b: 'right' } as const;

/** re-render when the share the submit button counts changes, or the whole percent watched a side shows */
const sameToShow = (old: StoredCoverage, next: StoredCoverage) =>
  old.share === next.share && Math.floor(old.videoShare * 100) === Math.floor(next.videoShare * 100);

/**
 * The pairwise page, one screen at lg (issue 43 §2): one large player showing the left or the
 * right run (sides as the server randomised them; `v` or the toolbar switches, each run keeps its
 * own place, trackers and coverage: the one off screen is not watched), one control bar driving
 * both players (play, pause, seek by time or step, speed), both transcripts side by side under
 * the player; beside them the task, a 5-point preference plus "both bad", a required rationale,
 * pass/fail per criterion for each side, evidence notes and the submit button.
 */

/**
 * The player's width: the column's, its height capped so the toolbar (2.5 rem), its controls
 * (1.75 rem), the gaps (2.25 rem) and 12 rem of transcripts fit under it in the one screen
 * (100dvh - 5.5 rem): at 1440x900 the column's 912 px (516 px allowed), the video's 17-20 px card
 * text at 12-14 px.
 */
const COMPARE_PLAYER_WIDTH = 'lg:max-w-[calc((100dvh-24rem)*16/9)]';
export function CompareWorkspace({
  view,
  heads,
  actions,
  typeset,
}: {
  view: AssignmentView;
  heads: VideoHead[];
  actions: CompareActions;
  /** the task's rich text, typeset by the page's server render (typesetTask) */
  typeset?: TaskTypeset;
}) {
  const [leftVideo, rightVideo] = [view.videos[0]!, view.videos[1]!];
  // each video's head (view.videos[i] is its props): the Players load their scenes from the blind view's route
  const parts = useMemo(
    () => ({ left: assignmentVideoParts(view.assignment.id, heads[0]!, 0), right: assignmentVideoParts(view.assignment.id, heads[1]!, 1) }),
    [view.assignment.id, heads],
  );
  const transcripts = useMemo(() => ({ left: view.transcripts[0] ?? [], right: view.transcripts[1] ?? [] }), [view.transcripts]);
  const basis = view.campaign.coverageBasis;
  // one object for the component's life, so callbacks that use the players stay stable
  const leftPlayerRef = useRef<PlayerHandle>(null);
  const rightPlayerRef = useRef<PlayerHandle>(null);
  const players = useMemo(() => ({ left: leftPlayerRef, right: rightPlayerRef }), []);
  // each run's proof of reading: what the submit button and the server count, kept in state as the trackers change
  const wpm = view.campaign.readingWpm;
  const left = useRunTracking({
    playerRef: leftPlayerRef,
    video: leftVideo,
    transcript: transcripts.left,
    basis,
    same: sameToShow,
    earned: view.earned[0],
    wpm,
  });
  const right = useRunTracking({
    playerRef: rightPlayerRef,
    video: rightVideo,
    transcript: transcripts.right,
    basis,
    same: sameToShow,
    earned: view.earned[1],
    wpm,
  });
  const runs = { left, right };
  const { coverage: coverageLeft, report: reportLeft } = left;
  const { coverage: coverageRight, report: reportRight } = right;
  const divergent = useMemo(() => firstDivergentStep(view.transcripts[0] ?? [], view.transcripts[1] ?? []), [view.transcripts]);
  const revision = (view.myComparison?.revision ?? 0) + 1;
  const criteria = view.task.criteria;
  const fps = leftVideo.fps;
  const maxSeconds = Math.max(leftVideo.durationInFrames, rightVideo.durationInFrames) / fps;

  const [preference, setPreference] = useState<number | null>(view.myComparison?.preference ?? null);
  const [bothBad, setBothBad] = useState(view.myComparison?.bothBad ?? false);
  const [rationale, setRationale] = useState(view.myComparison?.rationale ?? '');
  const [verdicts, setVerdicts] = useState<{ left: Record<string, string>; right: Record<string, string> }>(
    view.myComparison?.criteria ?? { left: {}, right: {} },
  );
  const [cell, setCell] = useState(0);
  const [time, setTime] = useState(0);
  const [rate, setRate] = useState(1);
  // the run in the one large player (the other keeps its place, trackers and coverage off screen)
  const [shown, setShown] = useState<Side>('left');
  const flow = useAssignmentFlow({ view, revision, actions, notes: view.myComparison?.evidence ?? [], sortNotes: false });
  const leftReport = left.report;
  const rightReport = right.report;
  const reports = useCallback(() => [leftReport(), rightReport()], [leftReport, rightReport]);
  useProgressSaver(view.assignment.id, reports, actions.saveProgress, !flow.closed);
  const { pending, closed, setError, setPin, send } = flow;
  const notes = flow.evidence.notes;

  // stable callbacks: the player re-subscribes when they change
  const onFrameLeftRun = left.playerProps.onFrame;
  const onFrameLeft = useCallback(
    (f: number) => {
      setTime((t) => (Math.floor(t) === Math.floor(f / fps) ? t : f / fps));
      onFrameLeftRun(f);
    },
    [fps, onFrameLeftRun],
  );
  const pinStep = useCallback(
    (side: Side, step: number) => {
      for (const ref of [players.left, players.right]) ref.current?.pause();
      const video = side === 'left' ? leftVideo : rightVideo;
      setPin({ frame: frameForStep(video.chapters, step) ?? 0, stepIndex: step, side: side === 'left' ? 'a' : 'b' });
    },
    [leftVideo, players, rightVideo, setPin],
  );
  const pinStepLeft = useCallback((step: number) => pinStep('left', step), [pinStep]);
  const pinStepRight = useCallback((step: number) => pinStep('right', step), [pinStep]);

  const both = useCallback(
    (fn: (p: PlayerHandle) => void) => {
      for (const ref of [players.left, players.right]) if (ref.current) fn(ref.current);
    },
    [players],
  );
  const togglePlay = useCallback(() => {
    const playing = leftPlayerRef.current?.isPlaying() || rightPlayerRef.current?.isPlaying();
    both((p) => (playing ? p.pause() : p.play()));
  }, [both]);
  const seekSeconds = useCallback((seconds: number) => both((p) => p.seekToFrame(seconds * fps)), [both, fps]);
  const changeRate = useCallback(
    (r: number) => {
      setRate(r);
      both((p) => p.setRate(r));
    },
    [both],
  );

  const momentLeft = left.momentAt;
  const momentRight = right.momentAt;
  const pinNote = useCallback(
    (side: Side) => {
      const p = players[side].current;
      if (!p) return;
      both((x) => x.pause());
      const moment = (side === 'left' ? momentLeft : momentRight)(p.currentFrame());
      setPin({ ...moment, side: side === 'left' ? 'a' : 'b' });
    },
    [both, momentLeft, momentRight, players, setPin],
  );

  const cells = criteria.flatMap((c) => [
    { key: c.key, side: 'left' as const },
    { key: c.key, side: 'right' as const },
  ]);

  const submit = useCallback(() => {
    if (pending || closed) return;
    if (preference === null) return setError('Choose which run is better (keys 1-5).');
    if (rationale.trim().length < 10) return setError('Explain your preference in a sentence or two (10+ characters).');
    for (const side of ['left', 'right'] as const) {
      const missing = criteria.filter((c) => !verdicts[side][c.key]);
      if (missing.length) return setError(`Give a pass/fail for “${missing[0]!.text}” on the ${side}.`);
      const short = coverageShortfall((side === 'left' ? coverageLeft : coverageRight)().share, view.campaign.minCoverage);
      if (short !== null) return setError(`${shortfallVerb(basis)} ${short}% more of the ${side} run before submitting.`);
    }
    send({
      preference,
      bothBad,
      rationale,
      criteria: verdicts,
      evidence: notes,
      coverage: { left: reportLeft(), right: reportRight() },
    });
  }, [
    pending,
    closed,
    preference,
    rationale,
    criteria,
    verdicts,
    view,
    setError,
    bothBad,
    notes,
    send,
    basis,
    coverageLeft,
    coverageRight,
    reportLeft,
    reportRight,
  ]);

  // one key handler for the page (use-review-shortcuts.ts); the players' own keys are off
  useReviewShortcuts({
    ...flow.dialogs,
    submit,
    handle: (action) => {
      let handled = true;
      switch (action.kind) {
        case 'toggle-play':
          togglePlay();
          break;
        case 'seek-seconds':
          both((p) => p.seekToFrame(p.currentFrame() + action.seconds * fps));
          break;
        case 'step':
          both((p) => p.stepBy(action.delta));
          break;
        case 'speed':
          changeRate(nextSpeed(players.left.current?.rate() ?? 1, action.delta));
          break;
        case 'pin-note':
          // the run in the player, or (Shift+N) the other one
          pinNote(action.right ? (shown === 'left' ? 'right' : 'left') : shown);
          break;
        case 'digit': {
          const p = preferenceForDigit(action.value);
          if (p === null) handled = false;
          else setPreference(p);
          break;
        }
        case 'both-bad':
          setBothBad((b) => !b);
          break;
        case 'switch-run':
          setShown((s) => (s === 'left' ? 'right' : 'left'));
          break;
        case 'verdict': {
          const c = cells[Math.min(cell, cells.length - 1)];
          if (!c) {
            handled = false;
            break;
          }
          setVerdicts((v) => ({ ...v, [c.side]: { ...v[c.side], [c.key]: action.value } }));
          setCell(Math.min(cells.length - 1, cell + 1));
          break;
        }
        case 'question':
          setCell(Math.max(0, Math.min(cells.length - 1, cell + action.delta)));
          break;
        default:
          handled = false;
      }
      return handled;
    },
  });

  const shortfalls = {
    left: coverageShortfall(left.covered?.share ?? 0, view.campaign.minCoverage),
    right: coverageShortfall(right.covered?.share ?? 0, view.campaign.minCoverage),
  };
  const watchMore = [
    shortfalls.left !== null ? `${shortfalls.left}% more of the left` : null,
    shortfalls.right !== null ? `${shortfalls.right}% more of the right` : null,
  ]
    .filter(Boolean)
    .join(' and ');

  const runLabel = (side: Side) => (side === 'left' ? 'Left run' : 'Right run');
  return (
    // one screen at lg (REVIEW_SCREEN): one large player showing either run, both transcripts under it, the form beside
    <div className={`grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem] ${REVIEW_SCREEN}`} data-testid="compare-layout">
      <div className="flex min-w-0 flex-col gap-3 lg:min-h-0">
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border border-zinc-200 bg-white px-2 py-1.5 text-sm shadow-sm"
          role="toolbar"
          aria-label="Both players"
        >
          <div className="flex overflow-hidden rounded-md border border-zinc-300" role="group" aria-label="Run in the player (v)">
            {(['left', 'right'] as const).map((side) => (
              <button
                key={side}
                type="button"
                aria-pressed={shown === side}
                onClick={() => setShown(side)}
                title={`Show the ${side} run in the player (v switches)`}
                className={`flex items-baseline gap-1.5 px-2 py-1 text-xs ${shown === side ? 'bg-indigo-600 text-white' : 'bg-white text-zinc-700 hover:bg-zinc-50'}`}
              >
                <span className="font-semibold">{runLabel(side)}</span>
                <span className={shown === side ? 'text-indigo-100' : 'text-zinc-500'} data-testid={`coverage-${side}`}>
                  watched {Math.floor((runs[side].covered?.videoShare ?? 0) * 100)}%
                  {basis !== 'video' ? ` · read ${runs[side].transcriptProps.readSteps.size}/${transcripts[side].length}` : ''}
                </span>
              </button>
            ))}
          </div>
          <button type="button" onClick={togglePlay} className="rounded-md bg-zinc-900 px-2.5 py-1 text-xs font-semibold text-white">
            Play / pause both
          </button>
          <button
            type="button"
            onClick={() => both((p) => p.stepBy(-1))}
            className="rounded-md border border-zinc-300 px-2 py-1 text-xs"
            aria-label="Previous step on both"
            title="Previous step on both ([)"
          >
            ◀
          </button>
          <button
            type="button"
            onClick={() => both((p) => p.stepBy(1))}
            className="rounded-md border border-zinc-300 px-2 py-1 text-xs"
            aria-label="Next step on both"
            title="Next step on both (])"
          >
            ▶
          </button>
          <input
            type="range"
            min={0}
            max={Math.floor(maxSeconds)}
            step={1}
            value={Math.floor(time)}
            onChange={(e) => {
              setTime(Number(e.target.value));
              seekSeconds(Number(e.target.value));
            }}
            aria-label="Seek both videos"
            className="min-w-24 flex-1 accent-indigo-600"
          />
          <span className="font-mono text-xs tabular-nums text-zinc-600">
            {formatClock(time)} / {formatClock(maxSeconds)}
          </span>
          <label className="flex items-center gap-1 text-xs text-zinc-600">
            <span className="sr-only">Speed</span>
            <select
              value={rate}
              onChange={(e) => changeRate(Number(e.target.value))}
              aria-label="Speed of both"
              className="rounded border border-zinc-300 bg-white px-1 py-0.5"
            >
              {REVIEW_SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
        </div>
        {/*
          Each side is `display: contents`: its player (the shown one only; the other keeps its
          place, trackers and coverage, off screen, so it is not watched) over both columns, its
          transcript in its own column under the player.
        */}
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 lg:min-h-0 lg:flex-1 lg:grid-rows-[auto_minmax(0,1fr)]">
          {(['left', 'right'] as const).map((side) => (
            <section key={side} aria-label={runLabel(side)} className="contents" data-testid={`side-${side}`}>
              <div
                className={`w-full md:col-span-2 md:row-start-1 lg:mx-auto ${COMPARE_PLAYER_WIDTH} ${shown === side ? '' : 'hidden'}`}
                data-shown={shown === side || undefined}
              >
                <ReviewPlayer
                  {...runs[side].playerProps}
                  parts={parts[side]}
                  onFrame={side === 'left' ? onFrameLeft : runs.right.playerProps.onFrame}
                />
              </div>
              <div className={`flex min-w-0 flex-col lg:min-h-0 md:row-start-2 ${side === 'left' ? 'md:col-start-1' : 'md:col-start-2'}`}>
                <BlindTranscript
                  {...runs[side].transcriptProps}
                  label={side === 'left' ? 'Left transcript' : 'Right transcript'}
                  divergentStep={divergent}
                  onPinStep={side === 'left' ? pinStepLeft : pinStepRight}
                  fill
                />
              </div>
            </section>
          ))}
        </div>
      </div>
      <aside className="flex min-w-0 flex-col gap-3 lg:min-h-0" aria-label="Your comparison">
        <div className="space-y-3 lg:min-h-0 lg:flex-1 lg:overflow-y-auto lg:pr-1" data-testid="compare-aside-scroll">
          <TaskPanel view={view} strip className="lg:max-h-[9rem]" typeset={typeset} />
          {view.myComparison ? (
            <p className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900">
              You submitted revision {view.myComparison.revision}. Submitting again saves revision {revision}.
            </p>
          ) : null}
          <fieldset disabled={closed} className="rounded-lg border border-zinc-200 bg-white p-3">
            <legend className="sr-only">Your preference</legend>
            <div className="mb-2 flex items-baseline justify-between gap-2">
              <p className="text-sm font-medium text-zinc-900">
                Which run is better? <span className="text-red-600">*</span>{' '}
                <span className="text-xs font-normal text-zinc-400">keys 1-5</span>
              </p>
              <ShortcutsButton flow={flow} />
            </div>
            <div className="grid grid-cols-5 gap-1" role="radiogroup" aria-label="Preference">
              {PREFERENCES.map((p, i) => (
                <button
                  key={p.value}
                  type="button"
                  role="radio"
                  aria-checked={preference === p.value}
                  onClick={() => setPreference(p.value)}
                  className={`rounded-md border px-1 py-1 text-[11px] leading-tight ${preference === p.value ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-zinc-300 text-zinc-700 hover:bg-zinc-50'}`}
                >
                  <span className="block font-mono opacity-60">{i + 1}</span>
                  {p.label}
                </button>
              ))}
            </div>
            <label className="mt-2 flex items-center gap-2 text-sm text-zinc-700">
              <input type="checkbox" checked={bothBad} onChange={(e) => setBothBad(e.target.checked)} /> Both bad{' '}
              <span className="text-xs text-zinc-400">(b)</span>
            </label>
            <label className="mt-2 block text-sm font-medium text-zinc-900">
              Rationale <span className="text-red-600">*</span>
              <textarea
                value={rationale}
                onChange={(e) => setRationale(e.target.value)}
                rows={3}
                maxLength={5000}
                placeholder="Why is one better? What did each get right or wrong?"
                className="mt-1 w-full rounded border border-zinc-300 px-2 py-1 text-sm font-normal"
              />
            </label>
          </fieldset>
          {criteria.length > 0 ? (
            <section aria-labelledby="criteria-title" className="rounded-lg border border-zinc-200 bg-white p-3">
              <h2 id="criteria-title" className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">
                Acceptance criteria <span className="font-normal normal-case text-zinc-400">(p / f, ↑ ↓ to move)</span>
              </h2>
              <DataTable
                frame="none"
                label="Acceptance criteria, left and right"
                columnClassName="py-1"
                columns={['criterion', 'left', 'right']}
              >
                {criteria.map((c, ci) => (
                  <tr key={c.key}>
                    <td className="py-1 pr-2 text-xs text-zinc-800">
                      <DeferredCriterionText text={c.text} />
                    </td>
                    {(['left', 'right'] as const).map((side, si) => {
                      const at = ci * 2 + si;
                      const v = verdicts[side][c.key];
                      return (
                        <td key={side} className={`py-1 ${cell === at ? 'bg-indigo-50' : ''}`}>
                          <div className="flex gap-1">
                            {(['pass', 'fail'] as const).map((verdict) => (
                              <button
                                key={verdict}
                                type="button"
                                aria-pressed={v === verdict}
                                aria-label={`${verdict === 'pass' ? 'Pass' : 'Fail'} ${side}: ${c.text}`}
                                onClick={() => {
                                  setVerdicts((x) => ({ ...x, [side]: { ...x[side], [c.key]: verdict } }));
                                  setCell(at);
                                }}
                                className={`rounded border px-1 py-0.5 text-xs ${v === verdict ? (verdict === 'pass' ? 'border-emerald-600 bg-emerald-600 text-white' : 'border-red-600 bg-red-600 text-white') : 'border-zinc-300 text-zinc-700 hover:bg-zinc-50'}`}
                              >
                                {verdict}
                              </button>
                            ))}
                          </div>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </DataTable>
            </section>
          ) : null}
          <EvidenceNotes
            {...flow.evidence}
            fps={fps}
            sideLabels={SIDE_LABELS}
            onSeek={(n) => {
              const side = n.side === 'b' ? 'right' : 'left';
              setShown(side);
              // a note keeps the frame it was pinned at; re-paced since, it points at its step (lib/video/chapters.ts)
              const v = side === 'left' ? leftVideo : rightVideo;
              players[side].current?.seekToFrame(evidenceFrame(v.chapters, v.durationInFrames, n));
            }}
          />
        </div>
        <div className="shrink-0 space-y-2 rounded-lg border border-zinc-200 bg-white p-3">
          <SubmitBar
            flow={flow}
            blocked={watchMore ? `${shortfallVerb(basis)} ${watchMore} to submit` : null}
            ready="Submit (Ctrl+Enter)"
            onSubmit={submit}
          />
        </div>
      </aside>
      <WorkspaceDialogs flow={flow} page="compare" />
    </div>
  );
}
