'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import { answersSchema } from '@/lib/review/rubric';
import { nextSpeed } from '@/lib/review/shortcuts';
import type { StoredCoverage } from '@/lib/review/coverage';
import { coverageShortfall } from '@/lib/review/watch-tracker';
import { evidenceFrame, frameForStep } from '@/lib/video/chapters';
import type { PlayerHandle } from '../video/trajectory-player';
import { assignmentVideoParts } from '../video/use-video-parts';
import type { VideoHead } from '@/lib/video/video-pieces';
import { BlindTranscript } from './blind-transcript';
import { EvidenceNotes } from './evidence-notes';
import { cleanAnswers, initialAnswers, RubricForm, type Answers } from './rubric-form';
import { SubmitBar } from './submit-bar';
import { TaskPanel } from './task-panel';
import type { TaskTypeset } from './task-typeset';
import { useAssignmentFlow, type AssignmentActions } from './use-assignment-flow';
import { useReviewShortcuts } from './use-review-shortcuts';
import { useRunTracking } from './use-run-tracking';
import { useProgressSaver } from './use-progress-saver';
import { ReviewPlayer, ShortcutsButton, WorkspaceDialogs } from './workspace-bits';

export type ReviewActions = AssignmentActions<{ review: { id: string; revision: number; duplicate: boolean } }>;

/** re-render on a whole percent or a newly read step, not on every reported range */
const sameToShow = (old: StoredCoverage, next: StoredCoverage) =>
  Math.floor(old.share * 100) === Math.floor(next.share * 100) &&
  Math.floor(old.videoShare * 100) === Math.floor(next.videoShare * 100) &&
  old.transcriptSteps.length === next.transcriptSteps.length;

/**
 * The single-item review page, laid out for reading at lg (one screen, issue 43 §2): a task
 * strip, the blind video (its height capped) and the transcript under it in its own scroll box;
 * the rubric, evidence notes pinned to moments, watch coverage and submit beside them; skip,
 * and a keyboard shortcut for everything (`?` lists them).
 */
export function ReviewWorkspace({
  view,
  heads,
  actions,
  typeset,
}: {
  view: AssignmentView;
  heads: VideoHead[];
  actions: ReviewActions;
  /** the task's rich text, typeset by the page's server render (typesetTask) */
  typeset?: TaskTypeset;
}) {
  const video = view.videos[0]!;
  // the video's head (view.videos[0] is its props): the Player loads its scenes from the blind view's route
  const parts = useMemo(() => assignmentVideoParts(view.assignment.id, heads[0]!, 0), [view.assignment.id, heads]);
  const rubric = view.rubric.definition;
  const criteriaKeys = useMemo(() => view.task.criteria.map((c) => c.key), [view.task.criteria]);
  const transcript = useMemo(() => view.transcripts[0] ?? [], [view.transcripts]);
  const basis = view.campaign.coverageBasis;
  // the share the submit button and the server count, kept in state as the trackers change
  const playerRef = useRef<PlayerHandle>(null);
  const run = useRunTracking({
    playerRef,
    video,
    transcript,
    basis,
    same: sameToShow,
    earned: view.earned[0],
    wpm: view.campaign.readingWpm,
  });
  const { coverage, report, momentAt } = run;
  const revision = (view.myReview?.revision ?? 0) + 1;

  const [answers, setAnswers] = useState<Answers>(() => initialAnswers(rubric, view.myReview?.answers ?? null));
  const [focused, setFocused] = useState(0);
  const [cursor, setCursor] = useState(0);
  const flow = useAssignmentFlow({ view, revision, actions, notes: view.myReview?.evidence ?? [], sortNotes: true });
  const { pending, closed, setError, setPin, send, elapsedSec } = flow;
  const reports = useCallback(() => [report()], [report]);
  useProgressSaver(view.assignment.id, reports, actions.saveProgress, !closed);
  const notes = flow.evidence.notes;

  const pinStep = useCallback(
    (step: number) => {
      playerRef.current?.pause();
      setPin({ frame: frameForStep(video.chapters, step) ?? playerRef.current?.currentFrame() ?? 0, stepIndex: step });
    },
    [playerRef, setPin, video.chapters],
  );

  const setAnswer = useCallback((id: string, value: unknown) => setAnswers((a) => ({ ...a, [id]: value })), []);

  const pinNote = useCallback(() => {
    const p = playerRef.current;
    if (!p) return;
    p.pause();
    setPin(momentAt(p.currentFrame()));
  }, [playerRef, setPin, momentAt]);

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
    const short = coverageShortfall(coverage().share, view.campaign.minCoverage);
    if (short !== null) {
      setError(`${shortfallVerb(view.campaign.coverageBasis)} ${short}% more before submitting.`);
      return;
    }
    send({ answers: cleaned, evidence: notes, coverage: report(), durationSec: elapsedSec() });
  }, [pending, closed, rubric, answers, criteriaKeys, view, setError, coverage, send, notes, report, elapsedSec]);

  // one key handler for the page (use-review-shortcuts.ts); the player's own keys are off
  useReviewShortcuts({
    ...flow.dialogs,
    submit,
    handle: (action) => {
      const p = playerRef.current;
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

  const covered = run.covered;
  const share = covered?.share ?? 0;
  const shortfall = coverageShortfall(share, view.campaign.minCoverage);
  return (
    // one screen at lg (REVIEW_SCREEN): the page does not scroll, the transcript and the rubric scroll in their own boxes
    <div className={`grid gap-4 lg:grid-cols-[minmax(0,1fr)_24rem] ${REVIEW_SCREEN}`} data-testid="review-layout">
      <div className="flex min-w-0 flex-col gap-3 lg:min-h-0">
        <TaskPanel view={view} strip className="shrink-0 lg:max-h-[6.5rem]" typeset={typeset} />
        <div className={`w-full shrink-0 lg:mx-auto ${REVIEW_PLAYER_WIDTH}`}>
          <ReviewPlayer {...run.playerProps} parts={parts} />
        </div>
        <BlindTranscript {...run.transcriptProps} onPinStep={pinStep} fill />
      </div>
      <aside className="flex min-w-0 flex-col gap-3 lg:min-h-0" aria-label="Your review">
        <div className="space-y-3 lg:min-h-0 lg:flex-1 lg:overflow-y-auto lg:pr-1" data-testid="review-aside-scroll">
          <div className="flex items-baseline justify-between">
            <h2 className="text-sm font-semibold text-zinc-900">{rubric.title}</h2>
            <ShortcutsButton flow={flow} />
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
          <EvidenceNotes
            {...flow.evidence}
            fps={video.fps}
            onSeek={(n) => playerRef.current?.seekToFrame(evidenceFrame(video.chapters, video.durationInFrames, n))}
          />
        </div>
        <div className="shrink-0 space-y-2 rounded-lg border border-zinc-200 bg-white p-3">
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
          <SubmitBar
            flow={flow}
            blocked={shortfall !== null ? `${shortfallVerb(view.campaign.coverageBasis)} ${shortfall}% more to submit` : null}
            ready={view.myReview ? 'Submit revision (Ctrl+Enter)' : 'Submit (Ctrl+Enter)'}
            onSubmit={submit}
          />
        </div>
      </aside>
      <WorkspaceDialogs flow={flow} page="review" />
    </div>
  );
}

/**
 * The review pages at lg are one screen: the studio's header (3.5 rem and its 1 px border) and the
 * main area's padding (2 rem each side, of which 1 rem is taken back here) leave 100dvh - 5.5 rem
 * - 1 px; the page itself does not scroll, so nothing that seeks, pins or focuses can scroll the
 * player away.
 */
export const REVIEW_SCREEN = 'lg:-my-4 lg:h-[calc(100dvh-5.5rem-1px)] lg:grid-rows-[minmax(0,1fr)] lg:overflow-hidden';

/**
 * The review page's player: as wide as the column, its height capped so the task strip (6.5 rem),
 * its controls (1.75 rem), the gaps (2.25 rem) and at least 15 rem of transcript fit under it
 * (at 1440x900: 404 px high, 718 px wide; at 1920x1080 the column's full 844 px).
 */
const REVIEW_PLAYER_WIDTH = 'lg:max-w-[calc((100dvh-31rem)*16/9)]';

/** What the coverage line says, in the campaign's basis. */
export function coverageLabel(basis: 'video' | 'transcript' | 'either', share: number): string {
  const pct = `${Math.floor(share * 100)}%`;
  return basis === 'video' ? `Watched ${pct}` : basis === 'transcript' ? `Read ${pct} of the transcript` : `Seen ${pct}`;
}

export function shortfallVerb(basis: 'video' | 'transcript' | 'either'): string {
  return basis === 'video' ? 'Watch' : basis === 'transcript' ? 'Read' : 'Watch or read';
}
