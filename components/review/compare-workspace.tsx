'use client';

import { useCallback, useMemo, useRef, useState, useTransition } from 'react';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import type { EvidenceNote } from '@/lib/review/evidence';
import { nextSpeed, preferenceForDigit } from '@/lib/review/shortcuts';
import { measureCoverage, type CoverageMeasure } from '@/lib/review/coverage';
import { ReadingTracker } from '@/lib/review/transcript-reading';
import { coverageShortfall, WatchTracker } from '@/lib/review/watch-tracker';
import { chapterAt, frameForStep } from '@/lib/video/chapters';
import { firstDivergentStep } from '@/lib/video/first-divergent-step';
import { TrajectoryPlayer, type PlayedRange, type PlayerHandle } from '../video/trajectory-player';
import { assignmentVideoParts } from '../video/use-video-parts';
import type { VideoHead } from '@/lib/video/video-pieces';
import { BlindTranscript } from './blind-transcript';
import { EvidenceNotes, type PendingPin } from './evidence-notes';
import { shortfallVerb } from './review-workspace';
import { ShortcutOverlay } from './shortcut-overlay';
import { SkipDialog } from './skip-dialog';
import { SubmitBar } from './submit-bar';
import { TaskPanel } from './task-panel';
import { REVIEW_SPEEDS, useAssignmentFlow, type Next } from './use-assignment-flow';
import type { ActionResult } from '@/lib/action-result';
import { useReviewShortcuts } from './use-review-shortcuts';
import { RichText } from '../ui/rich-text';
import { DataTable } from '../ui/table';

type Side = 'left' | 'right';

export interface CompareActions {
  submit: (input: unknown) => Promise<ActionResult<{ comparison: { id: string; revision: number; duplicate: boolean }; next: Next }>>;
  skip: (input: unknown) => Promise<ActionResult<Next>>;
}

const PREFERENCES = [
  { value: -2, label: 'Left much better' },
  { value: -1, label: 'Left better' },
  { value: 0, label: 'About equal' },
  { value: 1, label: 'Right better' },
  { value: 2, label: 'Right much better' },
] as const;

const SIDE_LABELS = { a: 'left', b: 'right' } as const;

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * The pairwise page: the two runs side by side (sides as the server randomised them), one
 * control bar driving both players (play, pause, seek by time or step, speed), a 5-point
 * preference plus "both bad", a required rationale, pass/fail per criterion for each side,
 * and watch coverage of both videos.
 */
export function CompareWorkspace({ view, heads, actions }: { view: AssignmentView; heads: VideoHead[]; actions: CompareActions }) {
  const [leftVideo, rightVideo] = [view.videos[0]!, view.videos[1]!];
  // each video's head (view.videos[i] is its props): the Players load their scenes from the blind view's route
  const parts = useMemo(
    () => ({ left: assignmentVideoParts(view.assignment.id, heads[0]!, 0), right: assignmentVideoParts(view.assignment.id, heads[1]!, 1) }),
    [view.assignment.id, heads],
  );
  // one object for the component's life, so callbacks that use the players stay stable
  const leftPlayer = useRef<PlayerHandle>(null);
  const rightPlayer = useRef<PlayerHandle>(null);
  const players = useMemo(() => ({ left: leftPlayer, right: rightPlayer }), []);
  const trackers = useRef({ left: new WatchTracker(leftVideo.durationInFrames), right: new WatchTracker(rightVideo.durationInFrames) });
  const transcripts = useMemo(() => ({ left: view.transcripts[0] ?? [], right: view.transcripts[1] ?? [] }), [view.transcripts]);
  const readers = useRef({ left: new ReadingTracker(transcripts.left), right: new ReadingTracker(transcripts.right) });
  const measures = useMemo<Record<Side, CoverageMeasure>>(() => {
    const m = (v: typeof leftVideo, t: readonly { index: number }[]) => ({
      totalFrames: v.durationInFrames,
      chapters: v.chapters,
      steps: t.map((s) => s.index),
    });
    return { left: m(leftVideo, transcripts.left), right: m(rightVideo, transcripts.right) };
  }, [leftVideo, rightVideo, transcripts]);
  const divergent = useMemo(() => firstDivergentStep(view.transcripts[0] ?? [], view.transcripts[1] ?? []), [view.transcripts]);
  const [readSteps, setReadSteps] = useState<Record<Side, ReadonlySet<number>>>({ left: new Set(), right: new Set() });
  const [activeSteps, setActiveSteps] = useState<Record<Side, number | null>>({ left: null, right: null });
  const basis = view.campaign.coverageBasis;
  const coverageOf = useCallback(
    (side: Side) =>
      measureCoverage({ ...trackers.current[side].report(), transcriptSteps: readers.current[side].read() }, measures[side], basis),
    [measures, basis],
  );
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
  const [notes, setNotes] = useState<EvidenceNote[]>(view.myComparison?.evidence ?? []);
  const [pin, setPin] = useState<PendingPin | null>(null);
  const [shares, setShares] = useState({ left: 0, right: 0 });
  const [time, setTime] = useState(0);
  const [rate, setRate] = useState(1);
  const [help, setHelp] = useState(false);
  const [skipping, setSkipping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const closed = view.campaign.status !== 'open';

  const { submitKey, submitted, skip } = useAssignmentFlow({
    assignmentId: view.assignment.id,
    campaignId: view.campaign.id,
    revision,
    skipAction: actions.skip,
    start,
    setError,
  });

  // what the submit button and the server count, kept in state as the trackers change (render reads no ref)
  const [coverShares, setCoverShares] = useState<Record<Side, number>>({ left: 0, right: 0 });
  const refreshCoverage = useCallback(
    (side: Side) => {
      const share = coverageOf(side).share;
      setCoverShares((s) => (s[side] === share ? s : { ...s, [side]: share }));
    },
    [coverageOf],
  );
  const played = useCallback(
    (side: Side, r: PlayedRange) => {
      trackers.current[side].played(r.from, r.to, r.rate);
      const share = Math.floor(trackers.current[side].share() * 100);
      setShares((s) => (s[side] === share ? s : { ...s, [side]: share }));
      refreshCoverage(side);
    },
    [refreshCoverage],
  );
  // stable callbacks: the player re-subscribes when they change
  const onPlayedLeft = useCallback((r: PlayedRange) => played('left', r), [played]);
  const onPlayedRight = useCallback((r: PlayedRange) => played('right', r), [played]);
  const onSeekLeft = useCallback(() => trackers.current.left.seeked(), []);
  const onSeekRight = useCallback(() => trackers.current.right.seeked(), []);
  const follow = useCallback(
    (side: Side, f: number) => {
      const step = chapterAt((side === 'left' ? leftVideo : rightVideo).chapters, f)?.step ?? null;
      setActiveSteps((s) => (s[side] === step ? s : { ...s, [side]: step }));
    },
    [leftVideo, rightVideo],
  );
  const onFrameLeft = useCallback(
    (f: number) => {
      setTime((t) => (Math.floor(t) === Math.floor(f / fps) ? t : f / fps));
      follow('left', f);
    },
    [fps, follow],
  );
  const onFrameRight = useCallback((f: number) => follow('right', f), [follow]);
  const reading = useCallback(
    (side: Side, inView: number[], seconds: number) => {
      if (!readers.current[side].tick(inView, seconds)) return;
      setReadSteps((r) => ({ ...r, [side]: new Set(readers.current[side].read()) }));
      refreshCoverage(side);
    },
    [refreshCoverage],
  );
  const onReadingLeft = useCallback((inView: number[], seconds: number) => reading('left', inView, seconds), [reading]);
  const onReadingRight = useCallback((inView: number[], seconds: number) => reading('right', inView, seconds), [reading]);
  const seekStepLeft = useCallback((step: number) => leftPlayer.current?.seekToStep(step), []);
  const seekStepRight = useCallback((step: number) => rightPlayer.current?.seekToStep(step), []);
  const pinStep = useCallback(
    (side: Side, step: number) => {
      for (const ref of [players.left, players.right]) ref.current?.pause();
      const video = side === 'left' ? leftVideo : rightVideo;
      setPin({ frame: frameForStep(video.chapters, step) ?? 0, stepIndex: step, side: side === 'left' ? 'a' : 'b' });
    },
    [leftVideo, players, rightVideo],
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
    const playing = leftPlayer.current?.isPlaying() || rightPlayer.current?.isPlaying();
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

  const pinNote = useCallback(
    (side: Side) => {
      const p = players[side].current;
      if (!p) return;
      both((x) => x.pause());
      const frame = p.currentFrame();
      const video = side === 'left' ? leftVideo : rightVideo;
      setPin({ frame, stepIndex: chapterAt(video.chapters, frame)?.step ?? null, side: side === 'left' ? 'a' : 'b' });
    },
    [both, leftVideo, players, rightVideo],
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
      const short = coverageShortfall(coverageOf(side).share, view.campaign.minCoverage);
      if (short !== null) return setError(`${shortfallVerb(basis)} ${short}% more of the ${side} run before submitting.`);
    }
    setError(null);
    start(async () => {
      const result = await actions.submit({
        assignmentId: view.assignment.id,
        campaignId: view.campaign.id,
        idempotencyKey: submitKey(),
        preference,
        bothBad,
        rationale,
        criteria: verdicts,
        evidence: notes,
        coverage: {
          left: { ...trackers.current.left.report(), transcriptSteps: readers.current.left.read() },
          right: { ...trackers.current.right.report(), transcriptSteps: readers.current.right.read() },
        },
      });
      if (!result.ok) return setError(result.error.message);
      submitted(result.data.next);
    });
  }, [pending, closed, preference, rationale, criteria, verdicts, view, actions, bothBad, notes, submitKey, submitted, basis, coverageOf]);

  // one key handler for the page (use-review-shortcuts.ts); the players' own keys are off
  useReviewShortcuts({
    skipping,
    help,
    setSkipping,
    setHelp,
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
          pinNote(action.right ? 'right' : 'left');
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
    left: coverageShortfall(coverShares.left, view.campaign.minCoverage),
    right: coverageShortfall(coverShares.right, view.campaign.minCoverage),
  };
  const watchMore = [
    shortfalls.left !== null ? `${shortfalls.left}% more of the left` : null,
    shortfalls.right !== null ? `${shortfalls.right}% more of the right` : null,
  ]
    .filter(Boolean)
    .join(' and ');

  return (
    <div className="space-y-4">
      <TaskPanel view={view} />
      <div
        className="sticky top-16 z-10 flex flex-wrap items-center gap-3 rounded-lg border border-zinc-200 bg-white/95 px-3 py-2 text-sm shadow-sm backdrop-blur"
        role="toolbar"
        aria-label="Both players"
      >
        <button type="button" onClick={togglePlay} className="rounded-md bg-zinc-900 px-3 py-1 text-xs font-semibold text-white">
          Play / pause both
        </button>
        <button
          type="button"
          onClick={() => both((p) => p.stepBy(-1))}
          className="rounded-md border border-zinc-300 px-2 py-1 text-xs"
          aria-label="Previous step on both"
        >
          ◀ step
        </button>
        <button
          type="button"
          onClick={() => both((p) => p.stepBy(1))}
          className="rounded-md border border-zinc-300 px-2 py-1 text-xs"
          aria-label="Next step on both"
        >
          step ▶
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
          className="min-w-40 flex-1 accent-indigo-600"
        />
        <span className="font-mono text-xs tabular-nums text-zinc-600">
          {clock(time)} / {clock(maxSeconds)}
        </span>
        <label className="flex items-center gap-1 text-xs text-zinc-600">
          Speed
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
        <button type="button" onClick={() => setHelp(true)} className="text-xs text-zinc-500 hover:text-zinc-900">
          <kbd className="rounded border border-zinc-300 px-1 font-mono">?</kbd> shortcuts
        </button>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {(['left', 'right'] as const).map((side) => (
          <section key={side} aria-label={`${side === 'left' ? 'Left' : 'Right'} run`} className="min-w-0" data-testid={`side-${side}`}>
            <div className="mb-1 flex items-baseline justify-between">
              <h2 className="text-sm font-semibold text-zinc-900">{side === 'left' ? 'Left run' : 'Right run'}</h2>
              <span className="text-xs text-zinc-500" data-testid={`coverage-${side}`}>
                watched {shares[side]}%{basis !== 'video' ? ` · read ${readSteps[side].size}/${transcripts[side].length} steps` : ''}
              </span>
            </div>
            <TrajectoryPlayer
              ref={players[side]}
              video={side === 'left' ? leftVideo : rightVideo}
              parts={parts[side]}
              onPlayed={side === 'left' ? onPlayedLeft : onPlayedRight}
              onSeek={side === 'left' ? onSeekLeft : onSeekRight}
              onFrame={side === 'left' ? onFrameLeft : onFrameRight}
              keyboard={false}
              rewindAtEnd={false}
              compact
              speeds={REVIEW_SPEEDS}
            />
            <div className="mt-3">
              <BlindTranscript
                steps={transcripts[side]}
                label={side === 'left' ? 'Left transcript' : 'Right transcript'}
                activeStep={activeSteps[side]}
                readSteps={readSteps[side]}
                divergentStep={divergent}
                onSeekStep={side === 'left' ? seekStepLeft : seekStepRight}
                onPinStep={side === 'left' ? pinStepLeft : pinStepRight}
                onReading={side === 'left' ? onReadingLeft : onReadingRight}
              />
            </div>
          </section>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="space-y-4">
          <EvidenceNotes
            notes={notes}
            pending={pin}
            fps={fps}
            sideLabels={SIDE_LABELS}
            onSave={(n) => {
              setNotes((list) => [...list, n]);
              setPin(null);
            }}
            onCancel={() => setPin(null)}
            onSeek={(n) => players[n.side === 'b' ? 'right' : 'left'].current?.seekToFrame(n.frame)}
            onRemove={(i) => setNotes((list) => list.filter((_, k) => k !== i))}
          />
          {criteria.length > 0 ? (
            <section aria-labelledby="criteria-title" className="rounded-lg border border-zinc-200 bg-white p-3">
              <h2 id="criteria-title" className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">
                Acceptance criteria <span className="font-normal normal-case text-zinc-400">(p / f, ↑ ↓ to move)</span>
              </h2>
              <DataTable
                frame="none"
                label="Acceptance criteria, left and right"
                columns={[
                  { label: 'criterion', className: 'py-1' },
                  { label: 'left', className: 'py-1' },
                  { label: 'right', className: 'py-1' },
                ]}
              >
                {criteria.map((c, ci) => (
                  <tr key={c.key}>
                    <td className="py-1 pr-2 text-xs text-zinc-800">
                      <RichText text={c.text} inline />
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
                                className={`rounded border px-1.5 py-0.5 text-xs ${v === verdict ? (verdict === 'pass' ? 'border-emerald-600 bg-emerald-600 text-white' : 'border-red-600 bg-red-600 text-white') : 'border-zinc-300 text-zinc-700 hover:bg-zinc-50'}`}
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
        </div>
        <aside className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3" aria-label="Your comparison">
          {view.myComparison ? (
            <p className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900">
              You submitted revision {view.myComparison.revision}. Submitting again saves revision {revision}.
            </p>
          ) : null}
          <fieldset disabled={closed}>
            <legend className="mb-2 text-sm font-medium text-zinc-900">
              Which run is better? <span className="text-red-600">*</span>{' '}
              <span className="text-xs font-normal text-zinc-400">keys 1-5</span>
            </legend>
            <div className="grid grid-cols-5 gap-1" role="radiogroup" aria-label="Preference">
              {PREFERENCES.map((p, i) => (
                <button
                  key={p.value}
                  type="button"
                  role="radio"
                  aria-checked={preference === p.value}
                  onClick={() => setPreference(p.value)}
                  className={`rounded-md border px-1 py-1.5 text-[11px] leading-tight ${preference === p.value ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-zinc-300 text-zinc-700 hover:bg-zinc-50'}`}
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
                rows={4}
                maxLength={5000}
                placeholder="Why is one better? What did each get right or wrong?"
                className="mt-1 w-full rounded border border-zinc-300 px-2 py-1 text-sm font-normal"
              />
            </label>
          </fieldset>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <SubmitBar
            label={
              closed
                ? 'Campaign closed'
                : pending
                  ? 'Submitting…'
                  : watchMore
                    ? `${shortfallVerb(basis)} ${watchMore} to submit`
                    : 'Submit (Ctrl+Enter)'
            }
            disabled={pending || closed || watchMore !== ''}
            onSubmit={submit}
            onSkip={view.assignment.status === 'claimed' ? () => setSkipping(true) : null}
          />
        </aside>
      </div>
      {help ? <ShortcutOverlay page="compare" onClose={() => setHelp(false)} /> : null}
      {skipping ? <SkipDialog pending={pending} error={error} onSkip={skip} onClose={() => setSkipping(false)} /> : null}
    </div>
  );
}
