import { toolCallCode } from './tool-call-code';
import type { Criterion, Step, TerminalRecording, ToolCall, Trajectory } from '../formats/trajectory';
import { diffFilesForScene, editArgumentsDiff, findUnifiedDiffs, type ParsedDiffFile } from './diff';
import { testMatchers, testResultsIn, type TestMatcher } from './evidence';
import {
  VIDEO_FPS,
  VIDEO_HEIGHT,
  VIDEO_PROPS_VERSION,
  VIDEO_WIDTH,
  type Chapter,
  type CriterionMark,
  type DiffScene,
  type DerivationBeat,
  type DerivationScene,
  type EquationGlyphs,
  type EquationPieceProps,
  type ObservationCard,
  type ResultScene,
  type Scene,
  type StepCard,
  type StepScene,
  type TerminalPiece,
  type TerminalScene,
  type TerminalSnapshot,
  type ToolCallCard,
  type TrajectoryVideoProps,
  type VideoCriterion,
  type RichText,
} from './schema';
import { castTimeInPiece } from './chapters';
import { derivationBeats, displayEquations, finalAnswer, type FinalAnswer } from './derivation';
import { diffEquations, RELATED_SHARE, sharedShare, unchangedPieces } from './equation-diff';
import {
  changedEquationSeconds,
  countWords,
  displayEquationSeconds,
  EQUATION_MOTION_SECONDS,
  readCardSeconds,
  READING,
  richTextReadingSeconds,
  SKIM_EQUATION_SECONDS,
  SKIM_PROSE_BEAT_SECONDS,
  STEP_FLOOR_SECONDS,
  STILL_MAX_SECONDS,
  VIDEO_MAX_SECONDS,
  VIDEO_SELECTION_SECONDS,
  type Pacing,
} from './pacing';
import { equationLeaves, equationMorph, morphTex } from './equation-morph';
import { GlyphTable, typesetGlyphs } from './tex-svg';
import { answerPlot } from './plot';
import { ScreenTable, TerminalReplay } from './terminal';
import { codeSpan } from '../rich-text/markdown-source';
import { clipChars, excerpt, excerptLines, mathSegments, plainText, richTextLength } from './text';
import {
  CLOSING_SECONDS,
  closingHolds,
  closingPages,
  JUDGE_EXPLANATION_CHARS,
  pagedCardSeconds,
  SUBMISSION_ANSWER_CHARS,
  stepCardPages,
  titlePages,
} from './card-pages';

/**
 * Trajectory -> TrajectoryVideo props. Pure and deterministic: no clock, no randomness, no I/O;
 * the same trajectory and options always give the same props (deep-equal, same JSON).
 *
 * The video: a title card (task, environment, policy, the criteria checklist), then for each
 * step (or group of consecutive small steps) a step card, the terminal replay of that step's
 * slice of the recording (idle gaps > 3 s compressed into a 1 s "⏩ N s idle" marker, long
 * stretches sped up), any diffs it made, then the submission's diff and a closing card with the
 * verifier's reward components and judge scores. Chapters map every step to its frames and the
 * real time it stands for; criteria carry their tick/cross marks per frame.
 */

export interface VideoOptions {
  fps?: number;
  width?: number;
  height?: number;
  /** the task's criteria as the studio knows them (edited / added in the UI); default: the trajectory's */
  criteria?: Criterion[];
  /** names to show instead of the trajectory's own (e.g. the project's environment and policy names) */
  labels?: { task?: string; environment?: string | null; policy?: string | null };
  /** terminal gaps longer than this (seconds) become an idle marker; default 3 */
  idleThresholdSeconds?: number;
  /** how long an idle marker shows (seconds); default 1 */
  idleMarkerSeconds?: number;
  /** a step's terminal replay is sped up to fit this (seconds, idle markers aside); default 8 */
  maxTerminalSceneSeconds?: number;
  /**
   * Length the video aims for (seconds; default 90). Longer runs are paced down: cards,
   * replays and diffs shrink in proportion, down to floors that keep each readable (a card
   * >= 1 s, a replay >= 1.5 s), so very long runs still exceed it.
   */
  targetSeconds?: number;
  /**
   * `read` (every card readable at 1x, derivations built up equation by equation, no length
   * target) or `skim` (the ~90 s overview; the default). See lib/video/pacing.ts.
   */
  pacing?: Pacing;
  /**
   * Blind review: `hidePolicy` replaces the policy, model, checkpoint, agent name and run id
   * (and the usage, whose cost gives the model away) with "hidden"; `hideReward` drops the
   * verifier reward, its components, the judge scores and the verifier's criterion verdicts.
   * The video's length is the same either way.
   */
  blind?: { hidePolicy: boolean; hideReward: boolean };
}

/** What the title card shows instead of a hidden policy. */
export const HIDDEN_POLICY_LABEL = 'Policy hidden';

const TITLE_SECONDS = 3.5;
/** the result card under skim pacing (before the run is shrunk to its target) */
const RESULT_SKIM_SECONDS = 3;
const TERMINAL_HOLD_SECONDS = 0.8;
const GROUP_MAX = 4;
const SMALL_CHARS = 240;
const DIFF_MAX_FILES = 3;
const DIFF_MAX_LINES = 30;
const EPS = 1e-6;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round3 = (v: number) => Math.round(v * 1000) / 1000;

interface Resolved {
  fps: number;
  width: number;
  height: number;
  idleThreshold: number;
  idleMarker: number;
  maxTerminal: number;
  target: number;
}

/** How much a long run is compressed: k = 1 leaves the natural durations. */
interface Pace {
  k: number;
  maxTerminal: number;
  idleMarker: number;
  hold: number;
}

/**
 * The video of a trajectory, bounded per pacing (VIDEO_MAX_SECONDS: skim 100 s, read 20 min). A
 * run that fits is the whole run, as it always was (nothing stored moves). A longer one shows a
 * selection of its steps (`selectSteps`), as many as fit in VIDEO_SELECTION_SECONDS, and lists
 * the others in `omittedSteps`: the chapter list points to the transcript for them.
 */
export function trajectoryVideoProps(trajectory: Trajectory, options: VideoOptions = {}): TrajectoryVideoProps {
  const pacing: Pacing = options.pacing ?? 'skim';
  const fps = options.fps ?? VIDEO_FPS;
  const steps = trajectory.steps.length;
  const max = VIDEO_MAX_SECONDS[pacing] * fps;
  // a run whose steps at their shortest already pass the bound is never built whole
  if (steps * STEP_FLOOR_SECONDS[pacing] <= VIDEO_MAX_SECONDS[pacing]) {
    const whole = buildVideoProps(trajectory, options, null);
    if (whole.durationInFrames <= max) return whole;
  }
  const target = VIDEO_SELECTION_SECONDS[pacing] * fps;
  let count = Math.max(1, Math.min(steps - 1, Math.floor(VIDEO_SELECTION_SECONDS[pacing] / (pacing === 'skim' ? 1.5 : 8))));
  let props = buildVideoProps(trajectory, options, selectSteps(trajectory, count));
  // fewer steps until it fits (a few rounds: each scales the count by how far over it is)
  for (let round = 0; round < 12 && props.durationInFrames > target && count > 1; round++) {
    count = Math.max(1, Math.min(count - 1, Math.floor((count * target * 0.95) / props.durationInFrames)));
    props = buildVideoProps(trajectory, options, selectSteps(trajectory, count));
  }
  return props;
}

/**
 * Which steps a bounded video shows, `count` of them at most (a mask by step index): the first
 * two and the last two, the answer's step, steps with an error observation, then others evenly
 * spaced across the run. Pure: the same trajectory and count give the same selection.
 */
export function selectSteps(trajectory: Trajectory, count: number): Uint8Array {
  const n = trajectory.steps.length;
  const chosen = new Uint8Array(n);
  let left = Math.min(count, n);
  const take = (i: number) => {
    if (left > 0 && i >= 0 && i < n && !chosen[i]) {
      chosen[i] = 1;
      left--;
    }
  };
  for (const i of [0, n - 1, 1, n - 2]) take(i);
  const answer = finalAnswer(trajectory.steps);
  if (answer) take(answer.step);
  const errors: number[] = [];
  for (let i = 0; i < n; i++) if (trajectory.steps[i]!.observations.some((o) => o.isError)) errors.push(i);
  // at most half the selection goes to errors, themselves evenly spaced
  const errorSlots = Math.min(errors.length, Math.floor(left / 2));
  for (let k = 0; k < errorSlots; k++) take(errors[Math.floor((k * errors.length) / errorSlots)]!);
  const even = left;
  for (let k = 0; k < even; k++) take(Math.floor(((k + 0.5) * n) / even));
  for (let i = 0; left > 0 && i < n; i++) take(i); // evenly spaced picks that fell on chosen steps
  return chosen;
}

/** `only`: the steps to show (a mask by index; null: every step); the others are listed in `omittedSteps`. */
function buildVideoProps(trajectory: Trajectory, options: VideoOptions, only: Uint8Array | null): TrajectoryVideoProps {
  const o = resolveOptions(options);
  const pacing: Pacing = options.pacing ?? 'skim';
  const criteria = options.criteria ?? trajectory.task.acceptanceCriteria;
  const b = stepMaterial(trajectory, options, o, criteria, only);
  const pace = paceOf(b, o);
  const timeline: Timeline = { scenes: [], chapters: [], at: 0 };
  const instruction = titleScenes(b, timeline);
  stepScenes(b, pace, timeline);
  const { outcome, closingFrom } = closingScenes(b, pace, timeline);
  b.term?.dispose();
  return {
    version: VIDEO_PROPS_VERSION,
    pacing,
    fps: o.fps,
    width: o.width,
    height: o.height,
    durationInFrames: timeline.at,
    header: videoHeader(b, options, instruction),
    scenes: timeline.scenes,
    chapters: timeline.chapters,
    criteria: videoCriteria(b, criteria, closingFrom),
    terminal: b.term ? { styles: b.term.table.styles, lines: b.term.table.lines } : null,
    ...(b.hidePolicy || b.hideReward ? { blind: { policy: b.hidePolicy, reward: b.hideReward } } : {}),
    ...(only ? { omittedSteps: omittedRanges(only, timeline.chapters, closingFrom) } : {}),
    outcome,
  };
}

function resolveOptions(options: VideoOptions): Resolved {
  return {
    fps: options.fps ?? VIDEO_FPS,
    width: options.width ?? VIDEO_WIDTH,
    height: options.height ?? VIDEO_HEIGHT,
    idleThreshold: options.idleThresholdSeconds ?? 3,
    idleMarker: options.idleMarkerSeconds ?? 1,
    maxTerminal: options.maxTerminalSceneSeconds ?? 8,
    target: options.targetSeconds ?? 90,
  };
}

/** What the scene builders share: the steps' cards, diffs and terminal slices, their grouping, the evidence marks so far. */
interface StepMaterial {
  trajectory: Trajectory;
  read: boolean;
  frames: (seconds: number) => number;
  hidePolicy: boolean;
  hideReward: boolean;
  base: ReturnType<typeof timeBase>;
  cards: StepCard[];
  answer: FinalAnswer | null;
  diffs: ReturnType<typeof stepDiffs>[];
  windows: ReturnType<typeof castWindows>;
  term: TerminalScenes | null;
  /** each shown step alone, or a run of consecutive small ones */
  groups: number[][];
  marks: Map<string, CriterionMark[]>;
  addEvidence: (text: string, frame: number, step: number | null) => void;
}

/** The scenes so far and the frame the next one starts at. */
interface Timeline {
  scenes: Scene[];
  chapters: Chapter[];
  at: number;
}

function stepMaterial(
  trajectory: Trajectory,
  options: VideoOptions,
  o: Resolved,
  criteria: Criterion[],
  only: Uint8Array | null,
): StepMaterial {
  const frames = (seconds: number) => Math.max(1, Math.round(seconds * o.fps));
  const read = (options.pacing ?? 'skim') === 'read';
  const matchers = testMatchers(criteria);
  const marks = new Map<string, CriterionMark[]>(criteria.map((c) => [c.key, []]));
  const addEvidence = (text: string, frame: number, step: number | null) => {
    for (const r of testResultsIn(text, matchers)) marks.get(r.key)!.push({ frame, state: r.state, source: 'evidence', step });
  };

  const base = timeBase(trajectory);
  const hidePolicy = options.blind?.hidePolicy ?? false;
  const hideReward = options.blind?.hideReward ?? false;
  const shown = (i: number) => only === null || only[i] === 1;
  // steps left out get no card (cards and diffs of a 100,000-step run cost seconds)
  const cards = trajectory.steps.map((s, i) => (shown(i) ? stepCard(s, trajectory, base, hidePolicy, read) : null)) as StepCard[];
  const answer = finalAnswer(trajectory.steps);
  const diffs = trajectory.steps.map((s, i) => (shown(i) ? stepDiffs(s) : null)) as ReturnType<typeof stepDiffs>[];
  const windows = castWindows(trajectory);
  const term =
    trajectory.terminal && trajectory.terminal.events.length > 0 ? new TerminalScenes(trajectory.terminal, o, matchers, addEvidence) : null;
  const hasTerminal = (step: number) => {
    const w = windows?.perStep.get(step);
    return !!(w && term?.hasVisibleEvents(w[0], w[1]));
  };

  const isSmall = (i: number) => {
    const c = cards[i]!;
    return (
      c.toolCalls.length === 0 &&
      c.observations.length === 0 &&
      richTextLength(c.message) + (c.reasoning?.length ?? 0) < SMALL_CHARS &&
      !c.message.some((m) => m.k === 'math' && m.display) &&
      answer?.step !== c.index &&
      diffs[i]!.files.length === 0 &&
      !hasTerminal(i)
    );
  };
  const groups: number[][] = [];
  for (let i = 0; i < cards.length;) {
    if (!shown(i)) {
      i++;
      continue;
    }
    const group = [i];
    if (isSmall(i))
      while (group.length < GROUP_MAX && i + group.length < cards.length && shown(i + group.length) && isSmall(i + group.length))
        group.push(i + group.length);
    groups.push(group);
    i += group.length;
  }
  return { trajectory, read, frames, hidePolicy, hideReward, base, cards, answer, diffs, windows, term, groups, marks, addEvidence };
}

/** How a run is paced: estimate its natural length, shrink everything in proportion when over the target. */
function paceOf(b: StepMaterial, o: Resolved): Pace & { paced: (seconds: number, floor: number) => number } {
  const { cards, answer, windows, term, diffs } = b;
  const natural = { max: o.maxTerminal, idle: o.idleMarker, hold: TERMINAL_HOLD_SECONDS };
  let body = 0;
  for (const group of b.groups) {
    if (group.length > 1) body += group.reduce((n, k) => n + smallCardSeconds(cards[k]!), 0);
    else {
      const k = group[0]!;
      const derivation = b.read ? null : skimDerivationSeconds(cards[k]!);
      body += (derivation ?? cardSeconds(cards[k]!)) + (answer?.step === k ? RESULT_SKIM_SECONDS : 0);
      const w = windows?.perStep.get(k);
      if (w && term) body += term.estimateSeconds(w[0], w[1], natural.max, natural.idle, natural.hold);
      if (diffs[k]!.files.length > 0) body += diffSeconds(diffs[k]!.files);
    }
  }
  if (windows?.global && term) body += term.estimateSeconds(0, Infinity, natural.max, natural.idle, natural.hold);
  const fixed = TITLE_SECONDS + CLOSING_SECONDS;
  // read pacing has no length target: nothing is shrunk
  const k = !b.read && body > 0 && fixed + body > o.target ? Math.max(0, o.target - fixed) / body : 1;
  return {
    k,
    maxTerminal: Math.max(1.5, o.maxTerminal * k),
    idleMarker: Math.max(0.5, o.idleMarker * k),
    hold: Math.max(0.4, TERMINAL_HOLD_SECONDS * k),
    paced: (seconds: number, floor: number) => (k >= 1 ? seconds : Math.max(Math.min(seconds, floor), seconds * k)),
  };
}

/** The title card (frame 0: the poster); answers the instruction it shows. */
function titleScenes(b: StepMaterial, timeline: Timeline): { text: ReturnType<typeof clipChars>; rich: RichText } {
  const text = clipChars(
    plainText(b.trajectory.task.instruction)
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    b.read ? 900 : 420,
  );
  const rich = mathSegments(text.text);
  const titleFrames = b.frames(
    // read: each page of the instruction (as the title card lays it out) a still of its own
    b.read
      ? Math.min(
          STILL_MAX_SECONDS * Math.max(1, titlePages(b.trajectory.task.name, rich).length),
          Math.max(TITLE_SECONDS, readCardSeconds({ text: rich }) + 1.5),
        )
      : TITLE_SECONDS,
  );
  timeline.scenes.push({ kind: 'title', from: 0, duration: titleFrames });
  timeline.at = titleFrames;
  return { text, rich };
}

/** The terminal replay and the diffs of step k, from the timeline's frame on. */
function afterStepScenes(b: StepMaterial, pace: ReturnType<typeof paceOf>, k: number, timeline: Timeline): void {
  const w = b.windows?.perStep.get(k);
  if (w && b.term) {
    const scene = b.term.build(timeline.at, k, w[0], w[1], pace);
    if (scene) {
      timeline.scenes.push(scene);
      timeline.at += scene.duration;
    }
  }
  const d = b.diffs[k]!;
  if (d.files.length > 0) {
    const seconds = b.read ? Math.min(STILL_MAX_SECONDS, readDiffSeconds(d.files)) : pace.paced(diffSeconds(d.files), 1.5);
    const scene = diffScene(d.files, d.title, k, timeline.at, b.frames, seconds);
    timeline.scenes.push(scene);
    timeline.at += scene.duration;
  }
}

/** The answer's result card after its step, when step k holds the answer. */
function resultScenes(b: StepMaterial, k: number, timeline: Timeline, seconds: (natural: number) => number): void {
  if (b.answer?.step !== k) return;
  const scene = resultScene(b.answer, b.trajectory, timeline.at, b.frames, seconds);
  timeline.scenes.push(scene);
  timeline.at += scene.duration;
}

/** Each group of steps: its cards (or, read alone, its derivation and pages), terminal replay, diffs and result card, with their chapters. */
function stepScenes(b: StepMaterial, pace: ReturnType<typeof paceOf>, timeline: Timeline): void {
  const { trajectory, cards, read, frames } = b;
  for (const group of b.groups) {
    const sceneFrom = timeline.at;
    const single = group.length === 1 ? cards[group[0]!]! : null;
    if (single && (read || hasDerivation(single))) {
      // read pacing: a derivation scene for display maths, pages for long prose, then tools; skim: a derivation scene too (each equation held to be followed)
      const k = group[0]!;
      const card = single;
      const cardSecondsOf = read ? readStepSeconds : (c: StepCard) => pace.paced(cardSeconds(c), 1);
      for (const scene of readScenes(
        card,
        timeline.at,
        frames,
        read && repeatsTask(trajectory.steps[k]!, trajectory),
        read,
        cardSecondsOf,
      )) {
        timeline.scenes.push(scene);
        if (scene.kind === 'step') {
          const entry = scene.cards[0]!;
          if (entry.card.observations.length > 0)
            for (const ob of trajectory.steps[k]!.observations) b.addEvidence(plainText(ob.content), entry.revealFrame, k);
        }
        timeline.at += scene.duration;
      }
      afterStepScenes(b, pace, k, timeline);
      resultScenes(
        b,
        k,
        timeline,
        read ? (seconds) => Math.min(STILL_MAX_SECONDS, seconds) : (seconds) => pace.paced(Math.min(seconds, RESULT_SKIM_SECONDS), 2),
      );
      timeline.chapters.push(chapterOf(trajectory.steps[k]!, card, sceneFrom, timeline.at));
      continue;
    }
    const entries: StepScene['cards'] = [];
    for (const k of group) {
      const card = cards[k]!;
      const duration = frames(
        read ? readStepSeconds(card) : group.length > 1 ? pace.paced(smallCardSeconds(card), 0.5) : pace.paced(cardSeconds(card), 1),
      );
      const revealFrame = timeline.at + Math.min(Math.round(duration * 0.35), frames(0.8));
      entries.push({ card, from: timeline.at, duration, revealFrame });
      for (const ob of trajectory.steps[k]!.observations) b.addEvidence(plainText(ob.content), revealFrame, k);
      timeline.at += duration;
    }
    timeline.scenes.push({ kind: 'step', from: sceneFrom, duration: timeline.at - sceneFrom, cards: entries });
    if (group.length > 1) {
      for (const e of entries) timeline.chapters.push(chapterOf(trajectory.steps[e.card.index]!, e.card, e.from, e.from + e.duration));
    } else {
      const k = group[0]!;
      afterStepScenes(b, pace, k, timeline);
      resultScenes(b, k, timeline, (seconds) => pace.paced(Math.min(seconds, RESULT_SKIM_SECONDS), 2));
      timeline.chapters.push(chapterOf(trajectory.steps[k]!, cards[k]!, sceneFrom, timeline.at));
    }
  }
}

/** After the steps: the whole recording's replay (when no step owns it), the submission's diffs, the closing card. */
function closingScenes(
  b: StepMaterial,
  pace: ReturnType<typeof paceOf>,
  timeline: Timeline,
): { outcome: TrajectoryVideoProps['outcome']; closingFrom: number } {
  const { trajectory, read, frames } = b;
  if (b.windows?.global && b.term) {
    const scene = b.term.build(timeline.at, null, 0, Infinity, pace);
    if (scene) {
      timeline.scenes.push(scene);
      timeline.at += scene.duration;
    }
  }
  const submissionDiffs = trajectory.submission ? findUnifiedDiffs(trajectory.submission) : [];
  if (submissionDiffs.length > 0) {
    const seconds = read ? Math.min(STILL_MAX_SECONDS, readDiffSeconds(submissionDiffs)) : diffSeconds(submissionDiffs);
    const scene = diffScene(submissionDiffs, 'submission', null, timeline.at, frames, seconds);
    timeline.scenes.push(scene);
    timeline.at += scene.duration;
  }
  // the closing card's pages (judges and a long answer beside the criteria), each held for its reading
  const outcome = videoOutcome(b, submissionDiffs, { reward: b.hideReward, policy: b.hidePolicy });
  // held as long as the open video's closing card: a blind video is as long as the open one (evidence
  // frames are the same in both), and its length says nothing of the judges it hides
  const open = b.hideReward || b.hidePolicy ? videoOutcome(b, submissionDiffs, { reward: false, policy: false }) : outcome;
  const holds = closingHolds(closingPages(open), read, open.judges.length > 0);
  const closingFrames = frames(holds.reduce((a, h) => a + h, 0));
  timeline.scenes.push({ kind: 'closing', from: timeline.at, duration: closingFrames });
  const closingFrom = timeline.at;
  timeline.at += closingFrames;
  return { outcome, closingFrom };
}

/** The criteria with their marks: the evidence seen on screen, then the verifier's verdict on the closing card (unless hidden). */
function videoCriteria(b: StepMaterial, criteria: Criterion[], closingFrom: number): VideoCriterion[] {
  return criteria.map((c) => {
    const list = b.marks.get(c.key)!;
    if (c.verdict !== null && !b.hideReward)
      list.push({ frame: closingFrom, state: c.verdict ? 'pass' : 'fail', source: 'verifier', step: null });
    return { key: c.key, text: c.text, origin: c.origin, verdict: b.hideReward ? null : c.verdict, marks: settleMarks(list) };
  });
}

function videoHeader(b: StepMaterial, options: VideoOptions, instruction: ReturnType<typeof titleScenes>): TrajectoryVideoProps['header'] {
  const { trajectory: t, hidePolicy } = b;
  return {
    task: options.labels?.task ?? t.task.name,
    instruction: instruction.rich,
    instructionOmittedChars: instruction.text.omitted,
    environment: options.labels?.environment !== undefined ? options.labels.environment : t.task.environment,
    policy: hidePolicy
      ? HIDDEN_POLICY_LABEL
      : options.labels?.policy !== undefined
        ? options.labels.policy
        : (t.policy.model ?? t.policy.checkpoint),
    agent: hidePolicy ? (t.policy.agent === null ? null : 'hidden') : t.policy.agent,
    format: t.format,
    externalId: hidePolicy ? null : t.externalId,
    stepCount: t.steps.length,
    realDurationSeconds: realDuration(t, b.base),
  };
}

function videoOutcome(
  b: StepMaterial,
  submissionDiffs: ParsedDiffFile[],
  hidden: { reward: boolean; policy: boolean },
): TrajectoryVideoProps['outcome'] {
  const { trajectory: t, answer } = b;
  const { reward: hideReward, policy: hidePolicy } = hidden;
  return {
    reward: hideReward ? null : (t.verifier?.reward ?? null),
    components: hideReward ? [] : Object.entries(t.verifier?.components ?? {}).map(([name, value]) => ({ name, value })),
    judges: (hideReward ? [] : t.judgeScores).map((j) => ({
      judge: j.judge,
      score: j.score,
      label: j.label,
      explanation: j.explanation === null ? null : clipChars(plainText(j.explanation), JUDGE_EXPLANATION_CHARS).text,
    })),
    // the stated answer (boxed, ANSWER line, last equation) before the start of a long submission
    answer: answer
      ? answer.text
      : t.submission && submissionDiffs.length === 0 && t.submission.trim() !== ''
        ? mathSegments(clipChars(plainText(t.submission).trim(), SUBMISSION_ANSWER_CHARS).text)
        : null,
    exitStatus: t.exitStatus,
    usage: hidePolicy ? null : t.usage,
  };
}

/** The runs of steps a bounded video leaves out, each at the frame of the next step shown (or the closing card). */
function omittedRanges(
  only: Uint8Array,
  chapters: readonly Chapter[],
  closingFrom: number,
): { fromStep: number; toStep: number; atFrame: number }[] {
  const ranges: { fromStep: number; toStep: number; atFrame: number }[] = [];
  let c = 0;
  for (let i = 0; i < only.length; i++) {
    if (only[i]) continue;
    const from = i;
    while (i + 1 < only.length && !only[i + 1]) i++;
    while (c < chapters.length && chapters[c]!.step <= i) c++;
    ranges.push({ fromStep: from, toStep: i, atFrame: c < chapters.length ? chapters[c]!.fromFrame : closingFrom });
  }
  return ranges;
}

/** Sorted by frame (stable), keeping only changes of state or source. */
function settleMarks(list: CriterionMark[]): CriterionMark[] {
  const sorted = list.map((m, i) => ({ m, i })).sort((a, b) => a.m.frame - b.m.frame || a.i - b.i);
  const out: CriterionMark[] = [];
  for (const { m } of sorted) {
    const last = out[out.length - 1];
    if (last && last.state === m.state && last.source === m.source) continue;
    if (last && last.frame === m.frame) out.pop();
    out.push(m);
  }
  return out;
}

function chapterOf(step: Step, card: StepCard, fromFrame: number, toFrame: number): Chapter {
  return {
    step: step.index,
    fromFrame,
    toFrame: Math.max(toFrame, fromFrame + 1),
    label: chapterLabel(card),
    timestamp: step.timestamp,
    realSeconds: card.realSeconds,
    castTime: step.castTime,
  };
}

/** A chapter's label (Markdown, shown by RichText): the actor, then its first tool call (a command as code) or its message. */
function chapterLabel(card: StepCard): string {
  const call = card.toolCalls[0];
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  if (call) {
    const command = call.kind === 'command' ? flat(call.body.head.split('\n')[0] ?? '') : '';
    // the command is code (`__pycache__`, `*.py` are not emphasis), clipped before it is fenced
    const shown = command ? `: ${codeSpan(clipChars(command, Math.max(20, 70 - call.name.length - 2)).text)}` : '';
    return `${card.actor} · ${call.name}${shown}`;
  }
  const line = flat(card.message.map((s) => (s.k === 'text' ? s.text : `$${s.tex}$`)).join(''));
  return `${card.actor}${line ? ` · ${clipChars(line, 70).text}` : ''}`;
}

// ---------------------------------------------------------------- read pacing

/** a message longer than this is cut (read pacing pages the rest; about four minutes of reading) */
const READ_MESSAGE_MAX_CHARS = 6000;
/** one beat of a derivation at least */
const BEAT_MIN_SECONDS = 2.5;

/** A derivation beat's still time: read, its reading time within [2.5 s, 12 s]; skim, an equation 3-5 s, a paragraph 1.5 s. */
function beatStillSeconds(reading: number, hasEquation: boolean, read: boolean): number {
  if (read) return clamp(reading, BEAT_MIN_SECONDS, STILL_MAX_SECONDS);
  return hasEquation ? clamp(reading / 2, SKIM_EQUATION_SECONDS, 5) : SKIM_PROSE_BEAT_SECONDS;
}

/** Whether a card's message is a derivation (it has display equations): it gets a derivation scene under both pacings. */
function hasDerivation(card: StepCard): boolean {
  return card.message.some((s) => s.k === 'math' && s.display && /[\p{L}\p{N}]/u.test(s.tex));
}

/** A derivation card's length under skim (its beats, as readScenes paces them), null when it is not one. */
function skimDerivationSeconds(card: StepCard): number | null {
  if (!hasDerivation(card)) return null;
  const beats = derivationBeats(card.message);
  if (!beats.some((b) => b.equation !== null)) return null;
  const tools = card.toolCalls.length > 0 || card.observations.length > 0 ? cardSeconds({ ...card, message: [], reasoning: null }) : 0;
  // every equation after the first may move from the last (an estimate: pacing only needs the length)
  return (
    beats.reduce(
      (n, b, i) =>
        n +
        (b.equation && i > 0 ? EQUATION_MOTION_SECONDS : 0) +
        beatStillSeconds(b.equation ? displayEquationSeconds(b.equation) : 0, b.equation !== null, false),
      0,
    ) + tools
  );
}

/**
 * A card under read pacing: its prose, reasoning and output held to be read but never still
 * longer than STILL_MAX_SECONDS, plus its code's lines (the listing scrolls through the program:
 * that is motion, not a still).
 */
function readStepSeconds(card: StepCard): number {
  // each page of the card as the composition lays it out (lib/video/card-pages.ts): its reading time, a still capped at STILL_MAX_SECONDS
  return pagedCardSeconds(stepCardPages(card));
}

/**
 * A step under read pacing: a derivation scene when its message has display maths (then a card
 * with its tool calls and observations, if any); else one card, or pages of a long message (the
 * reasoning on the first, the tools on the last), each held for its reading time.
 */
function readScenes(
  card: StepCard,
  from: number,
  frames: (s: number) => number,
  repeat: boolean,
  read: boolean,
  cardSecondsOf: (c: StepCard) => number,
): Scene[] {
  if (repeat) {
    // the task, repeated as the first user message: the title card already held it for reading
    const duration = frames(READING.cardMinSeconds);
    return [
      {
        kind: 'step',
        from,
        duration,
        cards: [{ card, from, duration, revealFrame: from + Math.min(Math.round(duration * 0.35), frames(0.8)) }],
      },
    ];
  }
  const beats = derivationBeats(card.message);
  const scenes: Scene[] = [];
  let at = from;
  const hasTools = card.toolCalls.length > 0 || card.observations.length > 0;
  const stepScene = (c: StepCard, page?: [number, number]): StepScene => {
    const duration = frames(cardSecondsOf(c));
    const revealFrame = at + Math.min(Math.round(duration * 0.35), frames(0.8));
    return { kind: 'step', from: at, duration, cards: [{ card: c, from: at, duration, revealFrame }], ...(page ? { page } : {}) };
  };
  if (beats.some((b) => b.equation !== null)) {
    const sceneFrom = at;
    const out: DerivationBeat[] = [];
    // each equation's morph leaves as SVG glyphs (lib/video/tex-svg.ts), their paths in one table for the scene
    const glyphs = new GlyphTable();
    const typeset = new Map<string, EquationGlyphs | null>();
    const svgOf = (pieces: EquationPieceProps[]) => {
      const tex = morphTex(equationLeaves(pieces));
      if (!typeset.has(tex)) typeset.set(tex, typesetGlyphs(tex, glyphs));
      return typeset.get(tex)!;
    };
    let previous: { tex: string; number: number } | null = null;
    let number = 0;
    beats.forEach((b, i) => {
      // paced by what changes: the prose, and of the equation only what is new since the last one
      let still =
        richTextReadingSeconds(b.prose) +
        (i === 0
          ? READING.orientSeconds + (card.reasoning && !read ? (countWords(card.reasoning) * 60) / READING.wordsPerMinute : 0)
          : 0.5);
      let motion = 0;
      let equation: DerivationBeat['equation'] = null;
      let prev: DerivationBeat['previous'] = null;
      if (b.equation !== null) {
        number++;
        if (previous) {
          const d = diffEquations(previous.tex, b.equation);
          // a new statement rather than a step from the last equation: shown plain, no diff
          const related = sharedShare(d) >= RELATED_SHARE;
          prev = { tex: previous.tex, pieces: related ? d.before : unchangedPieces(previous.tex), number: previous.number };
          equation = { tex: b.equation, pieces: related ? d.after : unchangedPieces(b.equation), number };
          still += related ? changedEquationSeconds(d.after) : displayEquationSeconds(b.equation);
          // the terms the two lines share move to their new places first (equation-morph.ts)
          if (equationMorph(prev.pieces, equation.pieces).carried > 0) motion = EQUATION_MOTION_SECONDS;
        } else {
          equation = { tex: b.equation, pieces: unchangedPieces(b.equation), number };
          still += displayEquationSeconds(b.equation);
        }
        previous = { tex: b.equation, number };
      } else if (previous) prev = { tex: previous.tex, pieces: unchangedPieces(previous.tex), number: previous.number };
      const duration = frames(motion + beatStillSeconds(still, b.equation !== null, read));
      if (equation) equation.svg = svgOf(equation.pieces);
      if (prev) prev.svg = svgOf(prev.pieces);
      out.push({ from: at, duration, prose: b.prose, equation, previous: prev });
      at += duration;
    });
    const header: StepCard = {
      ...card,
      message: [],
      messageOmittedChars: 0,
      toolCalls: [],
      observations: [],
      // read pacing: the whole reasoning is read on its own card before the derivation (below)
      reasoning: read ? null : card.reasoning,
    };
    const scene: DerivationScene = {
      kind: 'derivation',
      from: sceneFrom,
      duration: at - sceneFrom,
      step: card.index,
      card: header,
      equations: number,
      beats: out,
      glyphs: glyphs.paths,
    };
    if (read && card.reasoning) {
      // the reasoning card comes first: the derivation's beats move on after it
      const reasoning = stepScene({ ...card, message: [], messageOmittedChars: 0, toolCalls: [], observations: [] });
      reasoning.from = sceneFrom;
      reasoning.cards[0]!.from = sceneFrom;
      reasoning.cards[0]!.revealFrame = sceneFrom;
      scene.from += reasoning.duration;
      for (const b of out) b.from += reasoning.duration;
      scenes.push(reasoning);
      at += reasoning.duration;
    }
    scenes.push(scene);
    if (hasTools) scenes.push(stepScene({ ...card, message: [], messageOmittedChars: 0, reasoning: null }));
    return scenes;
  }
  if (beats.length <= 1) return [stepScene(card)];
  beats.forEach((b, i) => {
    const last = i === beats.length - 1;
    const page: StepCard = {
      ...card,
      message: b.prose,
      messageOmittedChars: last ? card.messageOmittedChars : 0,
      reasoning: i === 0 ? card.reasoning : null,
      toolCalls: last ? card.toolCalls : [],
      observations: last ? card.observations : [],
    };
    const scene = stepScene(page, [i + 1, beats.length]);
    scenes.push(scene);
    at += scene.duration;
  });
  return scenes;
}

/** A user message that is the task's instruction again (most formats open with it). */
function repeatsTask(step: Step, t: Trajectory): boolean {
  const norm = (x: string) => plainText(x).replace(/\s+/g, ' ').trim();
  return step.source === 'user' && step.toolCalls.length === 0 && norm(step.text) !== '' && norm(step.text) === norm(t.task.instruction);
}

function readDiffSeconds(parsed: ParsedDiffFile[]): number {
  const { files } = diffFilesForScene(parsed, DIFF_MAX_FILES, DIFF_MAX_LINES);
  const shown = files.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.length + 1, 0), 0);
  return Math.min(READING.cardMaxSeconds, Math.max(READING.cardMinSeconds, READING.orientSeconds + shown * READING.codeLineSeconds));
}

/** Every formula of the task and the run, in order: where a plot finds its values and ranges. */
function contextMaths(t: Trajectory): string[] {
  const texts = [t.task.instruction, ...t.steps.map((s) => s.text)];
  return texts.flatMap((x) => mathSegments(plainText(x)).flatMap((seg) => (seg.k === 'math' ? [seg.tex] : [])));
}

/** The result card: the answer, its plot when one can be drawn, held for its reading time (`pace` shrinks it under skim). */
function resultScene(
  answer: FinalAnswer,
  t: Trajectory,
  from: number,
  frames: (s: number) => number,
  pace: (seconds: number) => number,
): ResultScene {
  const plot = answerPlot(answer.maths, contextMaths(t));
  const seconds = Math.max(4, READING.orientSeconds + richTextReadingSeconds(answer.text) + (plot ? 5 : 0));
  return {
    kind: 'result',
    from,
    duration: frames(pace(seconds)),
    step: answer.step,
    source: answer.source,
    answer: answer.text as RichText,
    plot,
  };
}

// ---------------------------------------------------------------- steps

function cardSeconds(card: StepCard): number {
  const chars = richTextLength(card.message) + (card.reasoning?.length ?? 0);
  const lines =
    card.toolCalls.reduce((n, c) => n + excerptLines(c.body), 0) + card.observations.reduce((n, c) => n + excerptLines(c.body), 0);
  if (chars === 0 && lines === 0) return 1;
  return clamp(1.6 + chars / 350 + lines * 0.1, 2, 6);
}

function smallCardSeconds(card: StepCard): number {
  const chars = richTextLength(card.message) + (card.reasoning?.length ?? 0);
  return chars === 0 ? 0.6 : clamp(1 + chars / 350, 1.2, 2.5);
}

/** Who a card (and the blind transcript) names as the actor: never the agent's name when the policy is hidden. */
export function actorOf(step: Step, trajectory: Trajectory, hidePolicy: boolean): string {
  if (step.source !== 'agent') return step.source;
  return hidePolicy ? 'agent' : (trajectory.policy.agent ?? 'agent');
}

/** Read pacing: the reasoning whole, to be read (paged on the card, lib/video/card-pages.ts), up to the cap of a message. */
function wholeReasoning(reasoning: string | null): string | null {
  if (!reasoning) return null;
  const flat = plainText(reasoning)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return flat === '' ? null : clipChars(flat, READ_MESSAGE_MAX_CHARS).text;
}

function summariseReasoning(reasoning: string | null): string | null {
  if (!reasoning) return null;
  const flat = plainText(reasoning).replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  // the first two sentences when they are short enough, else a clipped start
  const sentences = flat.match(/[^.!?]+[.!?]+(\s|$)/g);
  if (sentences && sentences.length > 0) {
    const two = sentences.slice(0, 2).join('').trim();
    if (two.length <= 240 && two.length >= Math.min(flat.length, 40)) return two.length < flat.length ? `${two} …` : two;
  }
  return clipChars(flat, 220).text;
}

/**
 * Arguments as readable lines: `key: value`, multi-line strings as indented blocks, a unified
 * diff as a one-line summary (the diff itself gets its own scene).
 */
function formatArguments(args: unknown): string {
  if (typeof args === 'string') return args;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return JSON.stringify(args, null, 2) ?? '';
  const lines: string[] = [];
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (typeof value === 'string') {
      const diff = findUnifiedDiffs(value);
      if (diff.length > 0) {
        const adds = diff.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.filter((l) => l.kind === 'add').length, 0), 0);
        const dels = diff.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.filter((l) => l.kind === 'del').length, 0), 0);
        const names = diff.map((f) => f.newPath ?? f.oldPath ?? 'patch').join(', ');
        lines.push(`${key}: ‹unified diff: ${names}, +${adds} −${dels}›`);
      } else if (value.includes('\n')) {
        lines.push(`${key}: |`, ...value.split('\n').map((l) => `  ${l}`));
      } else lines.push(`${key}: ${value}`);
    } else lines.push(`${key}: ${JSON.stringify(value)}`);
  }
  return lines.join('\n');
}

/** the longest program a read-paced card lists whole (the rest: the transcript) */
const READ_CODE_MAX_LINES = 400;

function toolCallCard(call: ToolCall, compact: boolean, read: boolean): ToolCallCard {
  const program = toolCallCode(call.name, call.arguments);
  const command = program?.code ?? null;
  const text = command ?? formatArguments(call.arguments);
  const card: ToolCallCard = {
    name: call.name,
    kind: command !== null ? 'command' : 'args',
    body: excerpt(text, { headLines: compact ? 3 : 6, tailLines: compact ? 1 : 2, maxLineChars: 110 }),
  };
  // read pacing: a program is listed whole (the step is about the code), not cut to its first lines
  if (read && program && command!.trim().includes('\n')) {
    const lines = command!.replace(/\s+$/, '').split('\n');
    card.code = {
      text: lines.slice(0, READ_CODE_MAX_LINES).join('\n'),
      language: program.language,
      omittedLines: Math.max(0, lines.length - READ_CODE_MAX_LINES),
      rest: Object.keys(program.rest).length > 0 ? formatArguments(program.rest) : '',
    };
  }
  return card;
}

function stepCard(step: Step, trajectory: Trajectory, base: number | null, hidePolicy: boolean, read: boolean): StepCard {
  // read pacing keeps the whole message (it is paged), and so does a derivation (its equations
  // are built up one after another under both pacings); skim shows the start of other messages
  const flat = plainText(step.text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const message = clipChars(flat, read || displayEquations(mathSegments(flat)).length > 0 ? READ_MESSAGE_MAX_CHARS : 700);
  const compact = step.toolCalls.length + step.observations.length > 3;
  const callNames = new Map(step.toolCalls.filter((c) => c.id !== null).map((c) => [c.id!, c.name]));
  const observations: ObservationCard[] = step.observations.slice(0, 4).map((ob) => ({
    toolName: ob.toolCallId !== null ? (callNames.get(ob.toolCallId) ?? null) : null,
    body: excerpt(ob.content, { headLines: compact ? 4 : 8, tailLines: compact ? 2 : 4, maxLineChars: 120 }),
    isError: ob.isError,
  }));
  const ts = parseIso(step.timestamp);
  return {
    index: step.index,
    source: step.source,
    actor: actorOf(step, trajectory, hidePolicy),
    message: mathSegments(message.text),
    messageOmittedChars: message.omitted,
    reasoning: read ? wholeReasoning(step.reasoning) : summariseReasoning(step.reasoning),
    toolCalls: step.toolCalls.slice(0, 4).map((c) => toolCallCard(c, compact, read)),
    observations,
    timestamp: step.timestamp,
    realSeconds: ts !== null && base !== null ? round3((ts - base) / 1000) : step.castTime,
  };
}

/** ISO-8601 to epoch ms; a time without a zone is read as UTC (never the machine's zone). */
export function parseIso(s: string | null): number | null {
  if (!s) return null;
  let v = s.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v)) v += 'Z';
  v = v.replace(/(\.\d{3})\d+/, '$1');
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : null;
}

function timeBase(t: Trajectory): number | null {
  for (const s of t.steps) {
    const ms = parseIso(s.timestamp);
    if (ms !== null) return ms;
  }
  return null;
}

function realDuration(t: Trajectory, base: number | null): number | null {
  const start = parseIso(t.startedAt);
  const end = parseIso(t.endedAt);
  if (start !== null && end !== null && end >= start) return round3((end - start) / 1000);
  let last: number | null = null;
  for (const s of t.steps) {
    const ms = parseIso(s.timestamp);
    if (ms !== null && base !== null) last = (ms - base) / 1000;
  }
  if (last !== null && last > 0) return round3(last);
  const events = t.terminal?.events;
  return events && events.length > 0 ? round3(events[events.length - 1]![0]) : null;
}

// ---------------------------------------------------------------- diffs

function stringsIn(value: unknown, out: string[], depth = 0): void {
  if (out.length >= 50 || depth > 4) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out, depth + 1);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) stringsIn(v, out, depth + 1);
}

function stepDiffs(step: Step): { files: ParsedDiffFile[]; title: string } {
  const files: ParsedDiffFile[] = [];
  const seen = new Set<string>();
  let title = '';
  const add = (found: ParsedDiffFile[], where: string) => {
    for (const f of found) {
      const key = JSON.stringify(f);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(f);
      if (!title) title = where;
    }
  };
  for (const call of step.toolCalls) {
    const edit = editArgumentsDiff(call.arguments);
    if (edit) add([edit], `edit · ${call.name}`);
    const strings: string[] = [];
    stringsIn(call.arguments, strings);
    for (const s of strings) add(findUnifiedDiffs(s), `patch · ${call.name}`);
  }
  add(findUnifiedDiffs(step.text), 'message');
  for (const ob of step.observations) add(findUnifiedDiffs(plainText(ob.content)), 'observation');
  return { files, title: title || 'diff' };
}

function diffSeconds(parsed: ParsedDiffFile[]): number {
  const { files } = diffFilesForScene(parsed, DIFF_MAX_FILES, DIFF_MAX_LINES);
  const shown = files.reduce((n, f) => n + f.hunks.reduce((m, h) => m + h.lines.length + 1, 0), 0);
  return clamp(2 + shown * 0.08, 2.5, 6);
}

function diffScene(
  parsed: ParsedDiffFile[],
  title: string,
  step: number | null,
  from: number,
  frames: (s: number) => number,
  seconds: number,
): DiffScene {
  const { files, omittedFiles } = diffFilesForScene(parsed, DIFF_MAX_FILES, DIFF_MAX_LINES);
  return { kind: 'diff', from, duration: frames(seconds), step, title, files, omittedFiles };
}

// ---------------------------------------------------------------- terminal

/**
 * Which slice of the recording each step replays: from its castTime to the next linked step's
 * (the first linked step also gets what came before it; the last, everything after). When no
 * step is linked to the recording, the whole recording is one global replay.
 */
function castWindows(t: Trajectory): { perStep: Map<number, [number, number]>; global: boolean } | null {
  if (!t.terminal || t.terminal.events.length === 0) return null;
  const linked = t.steps.filter((s) => s.castTime !== null);
  const perStep = new Map<number, [number, number]>();
  if (linked.length === 0) return { perStep, global: true };
  let prev = 0;
  const starts = linked.map((s, k) => {
    const a = k === 0 ? 0 : Math.max(prev, s.castTime!);
    prev = a;
    return a;
  });
  linked.forEach((s, k) => perStep.set(s.index, [starts[k]!, k + 1 < linked.length ? starts[k + 1]! : Infinity]));
  return { perStep, global: false };
}

/** Builds terminal scenes in recording order with one emulator, interning lines and styles. */
class TerminalScenes {
  readonly table = new ScreenTable();
  private replay: TerminalReplay;
  private times: number[];
  private partialLine = '';

  constructor(
    private readonly recording: TerminalRecording,
    private readonly o: Resolved,
    private readonly matchers: TestMatcher[],
    private readonly evidence: (text: string, frame: number, step: number | null) => void,
  ) {
    this.replay = new TerminalReplay(recording);
    this.times = recording.events.map((e) => e[0]);
  }

  /** first event index with time >= t */
  private lowerBound(t: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private visibleTimes(a: number, b: number): number[] {
    const out: number[] = [];
    const events = this.recording.events;
    for (let k = this.lowerBound(a); k < events.length && events[k]![0] < b; k++) {
      const e = events[k]!;
      if ((e[1] === 'o' && e[2] !== '') || e[1] === 'r') if (out[out.length - 1] !== e[0]) out.push(e[0]);
    }
    return out;
  }

  hasVisibleEvents(a: number, b: number): boolean {
    const events = this.recording.events;
    for (let k = this.lowerBound(a); k < events.length && events[k]![0] < b; k++) {
      const e = events[k]!;
      if ((e[1] === 'o' && e[2] !== '') || e[1] === 'r') return true;
    }
    return false;
  }

  /** the replay's stretches: played ones and idle gaps, and the playback speed that fits them */
  private plan(
    a: number,
    b: number,
    maxSeconds: number,
    idleMarker: number,
    hold: number,
  ): { stretches: Array<{ castFrom: number; castTo: number; idle: boolean }>; speed: number; lastT: number; seconds: number } | null {
    const times = this.visibleTimes(a, b);
    if (times.length === 0) return null;
    const stretches: Array<{ castFrom: number; castTo: number; idle: boolean }> = [];
    let prev = a;
    for (const t of times) {
      if (t > prev) {
        const idle = t - prev > this.o.idleThreshold;
        const last = stretches[stretches.length - 1];
        if (!idle && last && !last.idle) last.castTo = t;
        else stretches.push({ castFrom: prev, castTo: t, idle });
      }
      prev = t;
    }
    const played = stretches.filter((s) => !s.idle).reduce((n, s) => n + (s.castTo - s.castFrom), 0);
    const idleCount = stretches.filter((s) => s.idle).length;
    const room = Math.max(1, maxSeconds - idleCount * idleMarker - hold);
    const speed = played > room ? played / room : 1;
    return { stretches, speed, lastT: times[times.length - 1]!, seconds: Math.max(1, played / speed + idleCount * idleMarker + hold) };
  }

  /** the length of a replay without building it (for pacing) */
  estimateSeconds(a: number, b: number, maxSeconds: number, idleMarker: number, hold: number): number {
    return this.plan(a, b, maxSeconds, idleMarker, hold)?.seconds ?? 0;
  }

  build(from: number, step: number | null, a: number, b: number, pace: Pace): TerminalScene | null {
    const plan = this.plan(a, b, pace.maxTerminal, pace.idleMarker, pace.hold);
    if (!plan) return null;
    const { stretches, speed, lastT } = plan;
    const frames = (s: number) => Math.max(1, Math.round(s * this.o.fps));

    const pieces: TerminalPiece[] = [];
    let at = from;
    for (const s of stretches) {
      const duration = s.idle ? frames(pace.idleMarker) : frames((s.castTo - s.castFrom) / speed);
      pieces.push({ from: at, duration, castFrom: s.castFrom, castTo: s.castTo, idle: s.idle });
      at += duration;
    }
    // hold the final screen, at least long enough that the scene lasts a second
    const hold = Math.max(frames(pace.hold), frames(1) - (at - from));
    pieces.push({ from: at, duration: hold, castFrom: lastT, castTo: lastT, idle: false });
    at += hold;

    const snapshots: TerminalSnapshot[] = [];
    const markers: TerminalScene['markers'] = [];
    let p = 0;
    for (let f = from; f < at; f++) {
      while (p + 1 < pieces.length && pieces[p + 1]!.from <= f) p++;
      const castTime = castTimeInPiece(pieces[p]!, f);
      const before = this.replay.applied;
      const changed = this.replay.advanceTo(castTime + EPS);
      if (changed) this.noteEvents(before, this.replay.applied, f, step, markers);
      if (changed || snapshots.length === 0) {
        const screen = this.replay.screenLines(this.table);
        snapshots.push({
          frame: f,
          cols: screen.cols,
          rows: screen.rows,
          lines: screen.lines,
          cursor: screen.cursor.visible ? [screen.cursor.x, screen.cursor.y] : null,
          t: round3(castTime),
        });
      }
    }
    // everything in the window is on screen by the end
    this.replay.advanceTo(lastT);
    return {
      kind: 'terminal',
      from,
      duration: at - from,
      step,
      castFrom: round3(a),
      castTo: round3(lastT),
      speed: Math.round(speed * 100) / 100,
      pieces,
      snapshots: dedupeSnapshots(snapshots),
      markers,
    };
  }

  private noteEvents(from: number, to: number, frame: number, step: number | null, markers: TerminalScene['markers']): void {
    const events = this.recording.events;
    for (let k = from; k < to; k++) {
      const [, code, data] = events[k]!;
      if (code === 'm') markers.push({ frame, label: clipChars(data, 60).text });
      else if (code === 'o' && this.matchers.length > 0) {
        const text = this.partialLine + plainText(data);
        const cut = text.lastIndexOf('\n');
        if (cut === -1) this.partialLine = text.slice(-2000);
        else {
          this.evidence(text.slice(0, cut), frame, step);
          this.partialLine = text.slice(cut + 1).slice(-2000);
        }
      }
    }
  }

  dispose(): void {
    this.replay.dispose();
  }
}

/** Drops a snapshot identical to the one before it (a marker or input event changed nothing). */
function dedupeSnapshots(snapshots: TerminalSnapshot[]): TerminalSnapshot[] {
  const out: TerminalSnapshot[] = [];
  for (const s of snapshots) {
    const last = out[out.length - 1];
    if (
      last &&
      last.cols === s.cols &&
      last.rows === s.rows &&
      last.cursor?.[0] === s.cursor?.[0] &&
      last.cursor?.[1] === s.cursor?.[1] &&
      last.lines.every((l, i) => l === s.lines[i])
    )
      continue;
    out.push(s);
  }
  return out;
}
