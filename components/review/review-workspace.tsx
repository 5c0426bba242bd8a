'use client';

import { useCallback, useEffect, useMemo, useRef, useState, useTransition } from 'react';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import type { EvidenceNote } from '@/lib/review/evidence';
import { answersSchema } from '@/lib/review/rubric';
import { nextSpeed } from '@/lib/review/shortcuts';
import { measureCoverage, type StoredCoverage } from '@/lib/review/coverage';
import { ReadingTracker } from '@/lib/review/transcript-reading';
import { coverageShortfall, WatchTracker } from '@/lib/review/watch-tracker';
import { chapterAt, frameForStep } from '@/lib/video/chapters';
import { TrajectoryPlayer, type PlayedRange, type PlayerHandle } from '../video/trajectory-player';
import { assignmentVideoParts } from '../video/use-video-parts';
import type { VideoHead } from '@/lib/video/video-pieces';
import { BlindTranscript } from './blind-transcript';
import { EvidenceNotes, type PendingPin } from './evidence-notes';
import { cleanAnswers, initialAnswers, RubricForm, type Answers } from './rubric-form';
import { ShortcutOverlay } from './shortcut-overlay';
import { SkipDialog } from './skip-dialog';
import { SubmitBar } from './submit-bar';
import { TaskPanel } from './task-panel';
import { REVIEW_SPEEDS, useAssignmentFlow, type Next } from './use-assignment-flow';
import type { ActionResult } from '@/lib/action-result';
import { useReviewShortcuts } from './use-review-shortcuts';

export interface ReviewActions {
  submit: (input: unknown) => Promise<ActionResult<{ review: { id: string; revision: number; duplicate: boolean }; next: Next }>>;
  skip: (input: unknown) => Promise<ActionResult<Next>>;
}

/**
 * The single-item review page: the blind video with its chapters, the rubric beside it,
 * evidence notes pinned to moments, watch coverage, skip, and a keyboard shortcut for
 * everything (`?` lists them).
 */
export function ReviewWorkspace({ view, heads, actions }: { view: AssignmentView; heads: VideoHead[]; actions: ReviewActions }) {
  const video = view.videos[0]!;
  // the video's head (view.videos[0] is its props): the Player loads its scenes from the blind view's route
  const parts = useMemo(() => assignmentVideoParts(view.assignment.id, heads[0]!, 0), [view.assignment.id, heads]);
  const rubric = view.rubric.definition;
  const criteriaKeys = useMemo(() => view.task.criteria.map((c) => c.key), [view.task.criteria]);
  const player = useRef<PlayerHandle>(null);
  const transcript = useMemo(() => view.transcripts[0] ?? [], [view.transcripts]);
  const tracker = useRef(new WatchTracker(video.durationInFrames));
  const reading = useRef(new ReadingTracker(transcript));
  const measure = useMemo(
    () => ({ totalFrames: video.durationInFrames, chapters: video.chapters, steps: transcript.map((s) => s.index) }),
    [video, transcript],
  );
  const [readSteps, setReadSteps] = useState<ReadonlySet<number>>(() => new Set());
  const [activeStep, setActiveStep] = useState<number | null>(null);
  // when the reviewer opened the item (set once mounted: render stays pure)
  const started = useRef(0);
  useEffect(() => {
    started.current = Date.now();
  }, []);
  const revision = (view.myReview?.revision ?? 0) + 1;

  const [answers, setAnswers] = useState<Answers>(() => initialAnswers(rubric, view.myReview?.answers ?? null));
  const [notes, setNotes] = useState<EvidenceNote[]>(view.myReview?.evidence ?? []);
  const [pin, setPin] = useState<PendingPin | null>(null);
  const [focused, setFocused] = useState(0);
  const [cursor, setCursor] = useState(0);
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

  const basis = view.campaign.coverageBasis;
  const coverageNow = useCallback(
    () => measureCoverage({ ...tracker.current.report(), transcriptSteps: reading.current.read() }, measure, basis),
    [measure, basis],
  );
  // the share the submit button and the server count, kept in state as the trackers change (render reads no ref)
  const [covered, setCovered] = useState<StoredCoverage | null>(null);
  const refreshCoverage = useCallback(() => {
    const next = coverageNow();
    // re-render on a whole percent or a newly read step, not on every reported range
    setCovered((old) =>
      old &&
      Math.floor(old.share * 100) === Math.floor(next.share * 100) &&
      Math.floor(old.videoShare * 100) === Math.floor(next.videoShare * 100) &&
      old.transcriptSteps.length === next.transcriptSteps.length
        ? old
        : next,
    );
  }, [coverageNow]);
  const onPlayed = useCallback(
    (r: PlayedRange) => {
      tracker.current.played(r.from, r.to, r.rate);
      refreshCoverage();
    },
    [refreshCoverage],
  );
  const onSeek = useCallback(() => tracker.current.seeked(), []);
  const onFrame = useCallback((f: number) => setActiveStep(chapterAt(video.chapters, f)?.step ?? null), [video.chapters]);
  const onReading = useCallback(
    (inView: number[], seconds: number) => {
      if (!reading.current.tick(inView, seconds)) return;
      setReadSteps(new Set(reading.current.read()));
      refreshCoverage();
    },
    [refreshCoverage],
  );
  const seekStep = useCallback((step: number) => player.current?.seekToStep(step), []);
  const pinStep = useCallback(
    (step: number) => {
      player.current?.pause();
      setPin({ frame: frameForStep(video.chapters, step) ?? player.current?.currentFrame() ?? 0, stepIndex: step });
    },
    [video.chapters],
  );

  const setAnswer = useCallback((id: string, value: unknown) => setAnswers((a) => ({ ...a, [id]: value })), []);

  const pinNote = useCallback(() => {
    const p = player.current;
    if (!p) return;
    p.pause();
    const frame = p.currentFrame();
    setPin({ frame, stepIndex: chapterAt(video.chapters, frame)?.step ?? null });
  }, [video.chapters]);

  const submit = useCallback(() => {
    if (pending || closed) return;
    const cleaned = cleanAnswers(rubric, answers);
    const check = answersSchema(rubric, criteriaKeys).safeParse(cleaned);
    if (!check.success) {
      const issue = check.error.issues[0]!;
      const q = rubric.questions.find((x) => x.id === issue.path[0]);
      setError(
        `${q ? q.prompt : issue.path.join('.')}: ${issue.message === 'Required' || issue.code === 'invalid_type' ? 'answer this question' : issue.message}`,
      );
      if (q) setFocused(rubric.questions.indexOf(q));
      return;
    }
    const short = coverageShortfall(coverageNow().share, view.campaign.minCoverage);
    if (short !== null) {
      setError(`${shortfallVerb(view.campaign.coverageBasis)} ${short}% more before submitting.`);
      return;
    }
    setError(null);
    start(async () => {
      const result = await actions.submit({
        assignmentId: view.assignment.id,
        campaignId: view.campaign.id,
        idempotencyKey: submitKey(),
        answers: cleaned,
        evidence: notes,
        coverage: { ...tracker.current.report(), transcriptSteps: reading.current.read() },
        durationSec: Math.round((Date.now() - started.current) / 1000),
      });
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      submitted(result.data.next);
    });
  }, [pending, closed, rubric, answers, criteriaKeys, view, actions, notes, submitKey, submitted, coverageNow]);

  // one key handler for the page (use-review-shortcuts.ts); the player's own keys are off
  useReviewShortcuts({
    skipping,
    help,
    setSkipping,
    setHelp,
    submit,
    handle: (action) => {
      const p = player.current;
      const q = rubric.questions[focused];
      let handled = true;
      switch (action.kind) {
        case 'toggle-play':
          p?.toggle();
          break;
        case 'seek-seconds':
          if (p) p.seekToFrame(p.currentFrame() + action.seconds * video.fps);
          break;
        case 'step':
          p?.stepBy(action.delta);
          break;
        case 'speed':
          if (p) p.setRate(nextSpeed(p.rate(), action.delta));
          break;
        case 'pin-note':
          pinNote();
          break;
        case 'digit': {
          if (!q) break;
          if (q.type === 'likert' && action.value <= q.points) setAnswer(q.id, action.value);
          else if (q.type === 'single' && q.options[action.value - 1]) setAnswer(q.id, q.options[action.value - 1]!.value);
          else if (q.type === 'multi' && q.options[action.value - 1]) {
            const v = q.options[action.value - 1]!.value;
            const current = Array.isArray(answers[q.id]) ? (answers[q.id] as string[]) : [];
            setAnswer(q.id, current.includes(v) ? current.filter((x) => x !== v) : [...current, v]);
          } else handled = false;
          break;
        }
        case 'verdict': {
          const ci = rubric.questions.findIndex((x) => x.type === 'criteria');
          if (ci === -1 || criteriaKeys.length === 0) {
            handled = false;
            break;
          }
          const at = ci === focused ? Math.min(cursor, criteriaKeys.length - 1) : 0;
          const cq = rubric.questions[ci]!;
          const current = (answers[cq.id] ?? {}) as Record<string, string>;
          setAnswer(cq.id, { ...current, [criteriaKeys[at]!]: action.value });
          if (at + 1 < criteriaKeys.length) {
            setFocused(ci);
            setCursor(at + 1);
          } else {
            setFocused(Math.min(rubric.questions.length - 1, ci + 1));
            setCursor(0);
          }
          break;
        }
        case 'question': {
          const n = Math.max(0, Math.min(rubric.questions.length - 1, focused + action.delta));
          setFocused(n);
          setCursor(0);
          const target = rubric.questions[n];
          if (target && (target.type === 'text' || target.type === 'number')) {
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-question="${target.id}"] [data-answer-input]`)?.focus());
          }
          break;
        }
        default:
          handled = false;
      }
      return handled;
    },
  });

  // keep the focused question in view
  useEffect(() => {
    const q = rubric.questions[focused];
    if (q) document.querySelector(`[data-question="${q.id}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [focused, rubric.questions]);

  const share = covered?.share ?? 0;
  const shortfall = coverageShortfall(share, view.campaign.minCoverage);
  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 space-y-4">
        <TaskPanel view={view} />
        <TrajectoryPlayer
          ref={player}
          video={video}
          parts={parts}
          onPlayed={onPlayed}
          onSeek={onSeek}
          onFrame={onFrame}
          keyboard={false}
          rewindAtEnd={false}
          compact
          speeds={REVIEW_SPEEDS}
        />
        <BlindTranscript
          steps={transcript}
          activeStep={activeStep}
          readSteps={readSteps}
          onSeekStep={seekStep}
          onPinStep={pinStep}
          onReading={onReading}
        />
        <EvidenceNotes
          notes={notes}
          pending={pin}
          fps={video.fps}
          onSave={(n) => {
            setNotes((list) => [...list, n].sort((a, b) => a.frame - b.frame));
            setPin(null);
          }}
          onCancel={() => setPin(null)}
          onSeek={(n) => player.current?.seekToFrame(n.frame)}
          onRemove={(i) => setNotes((list) => list.filter((_, k) => k !== i))}
        />
      </div>
      <aside
        className="min-w-0 space-y-3 lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto"
        aria-label="Your review"
      >
        <div className="flex items-baseline justify-between">
          <h2 className="text-sm font-semibold text-zinc-900">{rubric.title}</h2>
          <button type="button" onClick={() => setHelp(true)} className="text-xs text-zinc-500 hover:text-zinc-900">
            <kbd className="rounded border border-zinc-300 px-1 font-mono">?</kbd> shortcuts
          </button>
        </div>
        {rubric.instructions ? <p className="whitespace-pre-wrap text-xs text-zinc-600">{rubric.instructions}</p> : null}
        {view.myReview ? (
          <p className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900">
            You submitted revision {view.myReview.revision}. Submitting again keeps it and saves revision {revision}.
          </p>
        ) : null}
        <RubricForm
          rubric={rubric}
          criteria={view.task.criteria}
          answers={answers}
          onChange={setAnswer}
          focused={focused}
          criterionCursor={cursor}
          onFocusQuestion={(i) => {
            setFocused(i);
            setCursor(0);
          }}
          disabled={closed}
        />
        <div className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3">
          <div className="flex items-center justify-between text-xs text-zinc-600">
            <span data-testid="coverage">
              {coverageLabel(view.campaign.coverageBasis, share)}
              {covered && view.campaign.coverageBasis !== 'video'
                ? ` · watched ${Math.floor(covered.videoShare * 100)}%, read ${covered.transcriptSteps.length}/${covered.totalSteps} steps`
                : ''}
            </span>
            {view.campaign.minCoverage > 0 ? <span>needs {Math.round(view.campaign.minCoverage * 100)}%</span> : null}
          </div>
          <div className="h-1.5 overflow-hidden rounded bg-zinc-100" aria-hidden>
            <div
              className={`h-full ${shortfall === null ? 'bg-emerald-500' : 'bg-amber-500'}`}
              style={{ width: `${Math.min(100, share * 100)}%` }}
            />
          </div>
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
                  : shortfall !== null
                    ? `${shortfallVerb(view.campaign.coverageBasis)} ${shortfall}% more to submit`
                    : view.myReview
                      ? 'Submit revision (Ctrl+Enter)'
                      : 'Submit (Ctrl+Enter)'
            }
            disabled={pending || closed || shortfall !== null}
            onSubmit={submit}
            onSkip={view.assignment.status === 'claimed' ? () => setSkipping(true) : null}
          />
        </div>
      </aside>
      {help ? <ShortcutOverlay page="review" onClose={() => setHelp(false)} /> : null}
      {skipping ? <SkipDialog pending={pending} error={error} onSkip={skip} onClose={() => setSkipping(false)} /> : null}
    </div>
  );
}

/** What the coverage line says, in the campaign's basis. */
export function coverageLabel(basis: 'video' | 'transcript' | 'either', share: number): string {
  const pct = `${Math.floor(share * 100)}%`;
  return basis === 'video' ? `Watched ${pct}` : basis === 'transcript' ? `Read ${pct} of the transcript` : `Seen ${pct}`;
}

export function shortfallVerb(basis: 'video' | 'transcript' | 'either'): string {
  return basis === 'video' ? 'Watch' : basis === 'transcript' ? 'Read' : 'Watch or read';
}
