import { z } from 'zod';
import { pacingSchema } from './pacing';

/**
 * The props of the TrajectoryVideo composition: the one source of truth, shared by
 * `lib/video/props.ts` (which derives them from a Trajectory) and `render/` (which draws them;
 * `render/compositions/trajectory-video/schema.ts` re-exports this file). Plain zod, no React.
 *
 * Every frame number here is ABSOLUTE (frame 0 = the first frame of the video); a range is
 * `from` inclusive, `from + duration` exclusive (Remotion's Sequence convention). The props are
 * self-contained: the composition draws any frame from them alone, so frames can render out of
 * order and in parallel.
 */

export const VIDEO_FPS = 30;
export const VIDEO_WIDTH = 1280;
export const VIDEO_HEIGHT = 720;
/**
 * Bump when the props' shape or the video's look changes: cached props and rendered MP4s of an
 * older version are derived / rendered anew on demand (lib/videos/composition-version.ts).
 * 2: read/skim pacing, derivation scenes, result card with plot, frame 0 = the settled title card (the poster).
 * 3: maths notation written out (`$...$`) shown as code, not an empty formula; the diff's flare without blur.
 * 4: a chapter names its command as code; Python dunder names (`__pycache__`) shown as written, not bold.
 * 5: read pacing by what changes (no scene still past 12 s; the hoop video 3:10 -> 1:43), skim builds derivations up
 *    (3 s an equation at least), equations morph line to line, a full stop after a display equation stays in it,
 *    the criteria rail, programs listed whole. Stored props and videos of version 4 are derived and rendered anew;
 *    stored evidence keeps its frame and step: it is read against the chapters of the video it points into
 *    (lib/video/chapters.ts evidenceFrame), never re-timed.
 * 6: equations drawn as MathJax SVG glyphs that move and morph line to line (lib/video/tex-svg.ts), a 22 px type
 *    floor (>= 12 px in the 718 px review player), the criteria sidebar beside the title and closing cards only,
 *    long content paged instead of cut, step reasoning typeset and paged.
 * 7: the closing card paged (every component and judge, explanations up to 600 characters, a long answer), each
 *    page held for its reading, instead of four judges, six components and the rest overflowing or "+ N more".
 */
export const VIDEO_PROPS_VERSION = 7;

const frame = z.number().int().nonnegative();
const count = z.number().int().nonnegative();

/** Text with LaTeX maths marked for KaTeX: `$…$` / `\(…\)` inline, `$$…$$` / `\[…\]` display. */
export const textSegmentSchema = z.discriminatedUnion('k', [
  z.object({ k: z.literal('text'), text: z.string() }),
  z.object({ k: z.literal('math'), tex: z.string(), display: z.boolean() }),
]);
export type TextSegment = z.infer<typeof textSegmentSchema>;
export const richTextSchema = z.array(textSegmentSchema);
export type RichText = z.infer<typeof richTextSchema>;

/** A long text summarised: the first lines, a "… N more lines" marker, the last lines. */
export const excerptSchema = z.object({
  head: z.string(),
  /** lines left out between head and tail (0 = nothing left out) */
  omittedLines: count,
  tail: z.string(),
  totalLines: count,
});
export type Excerpt = z.infer<typeof excerptSchema>;

export const toolCallCardSchema = z.object({
  name: z.string(),
  /** `command` = a shell command shown as `$ …`; `args` = pretty-printed arguments */
  kind: z.enum(['command', 'args']),
  body: excerptSchema,
  /**
   * Read pacing, a call that runs a program of more than one line (lib/video/tool-call-code.ts):
   * the whole program, shown highlighted with line numbers and paged through while the card
   * holds (render/ui/code-listing.tsx, as the transcript shows it), its other arguments beside it.
   */
  code: z
    .object({
      text: z.string(),
      language: z.enum(['python', 'bash']).nullable(),
      /** lines past READ_CODE_MAX_LINES left out (read them in the transcript) */
      omittedLines: count,
      /** the other arguments, one `key: value` a line ('' when none) */
      rest: z.string(),
    })
    .optional(),
});
export type ToolCallCard = z.infer<typeof toolCallCardSchema>;

export const observationCardSchema = z.object({
  /** the tool call's name when the observation is linked to one */
  toolName: z.string().nullable(),
  body: excerptSchema,
  isError: z.boolean(),
});
export type ObservationCard = z.infer<typeof observationCardSchema>;

export const stepCardSchema = z.object({
  /** the trajectory step index */
  index: count,
  source: z.enum(['system', 'user', 'agent', 'tool', 'environment', 'hook']),
  /** who acted, for the card header ("agent · claude-sonnet-4-5") */
  actor: z.string(),
  message: richTextSchema,
  /** characters of the message left out */
  messageOmittedChars: count,
  /** the reasoning, summarised to its first sentences */
  reasoning: z.string().nullable(),
  toolCalls: z.array(toolCallCardSchema),
  observations: z.array(observationCardSchema),
  timestamp: z.string().nullable(),
  /** seconds since the run started that this step stands for (cast time, else from timestamps) */
  realSeconds: z.number().nullable(),
});
export type StepCard = z.infer<typeof stepCardSchema>;

const sceneBase = { from: frame, duration: z.number().int().positive() };

export const titleSceneSchema = z.object({ kind: z.literal('title'), ...sceneBase });

export const stepSceneSchema = z.object({
  kind: z.literal('step'),
  ...sceneBase,
  /** one card, or a group of consecutive small steps shown together (each with its own range) */
  cards: z.array(z.object({ card: stepCardSchema, from: frame, duration: z.number().int().positive(), revealFrame: frame })).min(1),
  /** [page, pages] when a long message is shown over several cards (read pacing) */
  page: z.tuple([z.number().int().positive(), z.number().int().positive()]).optional(),
});

/** One styled run of terminal text: [text, index into `terminal.styles`]. */
export const terminalRunSchema = z.tuple([z.string(), count]);
export const terminalStyleSchema = z.object({
  /** CSS colour, null = the terminal default */
  fg: z.string().nullable(),
  bg: z.string().nullable(),
  bold: z.boolean(),
  dim: z.boolean(),
  italic: z.boolean(),
  underline: z.boolean(),
  strike: z.boolean(),
  inverse: z.boolean(),
});
export type TerminalStyle = z.infer<typeof terminalStyleSchema>;

export const terminalSnapshotSchema = z.object({
  /** first frame showing this screen (it lasts until the next snapshot's frame) */
  frame,
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
  /** one index into `terminal.lines` per screen row */
  lines: z.array(count),
  /** [x, y] of a visible cursor, null when hidden */
  cursor: z.tuple([count, count]).nullable(),
  /** recording seconds this screen stands for (events with time <= t applied) */
  t: z.number().nonnegative(),
});
export type TerminalSnapshot = z.infer<typeof terminalSnapshotSchema>;

/** A stretch of a terminal segment: played (cast time advances) or an idle gap shown as a marker. */
export const terminalPieceSchema = z.object({
  ...sceneBase,
  castFrom: z.number().nonnegative(),
  castTo: z.number().nonnegative(),
  idle: z.boolean(),
});
export type TerminalPiece = z.infer<typeof terminalPieceSchema>;

export const terminalSceneSchema = z.object({
  kind: z.literal('terminal'),
  ...sceneBase,
  /** the step whose commands this replays, null when the recording is not linked to steps */
  step: count.nullable(),
  castFrom: z.number().nonnegative(),
  castTo: z.number().nonnegative(),
  /** playback speed of the non-idle pieces (1 = real time) */
  speed: z.number().positive(),
  pieces: z.array(terminalPieceSchema).min(1),
  snapshots: z.array(terminalSnapshotSchema).min(1),
  /** asciinema markers ('m' events) in this segment */
  markers: z.array(z.object({ frame, label: z.string() })),
});

export const diffLineSchema = z.object({
  kind: z.enum(['add', 'del', 'context']),
  text: z.string(),
  oldNo: count.nullable(),
  newNo: count.nullable(),
});
export type DiffLine = z.infer<typeof diffLineSchema>;
export const diffHunkSchema = z.object({ header: z.string(), lines: z.array(diffLineSchema) });
export type DiffHunk = z.infer<typeof diffHunkSchema>;
export const diffFileSchema = z.object({
  oldPath: z.string().nullable(),
  newPath: z.string().nullable(),
  /** a Prism language id guessed from the file name (null = no colouring) */
  language: z.string().nullable(),
  hunks: z.array(diffHunkSchema),
  additions: count,
  deletions: count,
  /** diff lines of this file left out of the scene */
  omittedLines: count,
});
export type DiffFile = z.infer<typeof diffFileSchema>;

export const diffSceneSchema = z.object({
  kind: z.literal('diff'),
  ...sceneBase,
  /** the step the diff came from, null for the final submission */
  step: count.nullable(),
  /** where it was found: "tool call edit", "observation", "submission" */
  title: z.string(),
  files: z.array(diffFileSchema).min(1),
  /** files left out of the scene */
  omittedFiles: count,
});

export const closingSceneSchema = z.object({ kind: z.literal('closing'), ...sceneBase });

/** A piece of a display equation with its diff state (lib/video/equation-diff.ts). */
export interface EquationPieceProps {
  tex: string;
  kind: 'term' | 'op' | 'rel' | 'space';
  state: 'same' | 'changed';
  parts?: EquationPieceProps[];
}
export const equationPieceSchema: z.ZodType<EquationPieceProps> = z.lazy(() =>
  z.object({
    tex: z.string(),
    kind: z.enum(['term', 'op', 'rel', 'space']),
    state: z.enum(['same', 'changed']),
    parts: z.array(equationPieceSchema).optional(),
  }),
);

/**
 * A display equation typeset to SVG glyphs where the props are built (lib/video/tex-svg.ts, MathJax),
 * its morph leaves (lib/video/equation-morph.ts) kept apart by their marker colour. Coordinates in
 * MathJax's units (1000 = 1 em), y down, the baseline at y = 0. The composition only draws paths.
 */
export const equationGlyphsSchema = z.object({
  /** [left, top (negative: above the baseline), width, height] */
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** [leaf index (-1: not a leaf), index into the scene's glyph table, x, y, scale x, scale y (negative: MathJax's font is y up)] */
  glyphs: z.array(z.tuple([z.number().int().min(-1), count, z.number(), z.number(), z.number(), z.number()])),
  /** fraction bars, root vinculums: [leaf index (-1: none), x, y, width, height] */
  rules: z.array(z.tuple([z.number().int().min(-1), z.number(), z.number(), z.number(), z.number()])),
});
export type EquationGlyphs = z.infer<typeof equationGlyphsSchema>;

/** One path of a scene's glyph table: its `d` (font units, y up) and its bounding box [x1, y1, x2, y2]. */
export const glyphPathSchema = z.object({ d: z.string(), box: z.tuple([z.number(), z.number(), z.number(), z.number()]) });
export type GlyphPath = z.infer<typeof glyphPathSchema>;

const beatEquationSchema = z.object({
  tex: z.string(),
  pieces: z.array(equationPieceSchema),
  number: z.number().int().positive(),
  /** its morph leaves as SVG glyphs (null: MathJax could not typeset it, KaTeX draws it; absent in older props) */
  svg: equationGlyphsSchema.nullable().optional(),
});

/** One beat of a derivation: the prose leading to an equation, the equation, and what changed since the last one. */
export const derivationBeatSchema = z.object({
  from: frame,
  duration: z.number().int().positive(),
  prose: richTextSchema,
  /** the equation this beat shows, diffed against the previous one (null: prose only) */
  equation: beatEquationSchema.nullable(),
  /** the previous equation, its gone pieces marked (null for the first equation) */
  previous: beatEquationSchema.nullable(),
});
export type DerivationBeat = z.infer<typeof derivationBeatSchema>;

/** A step whose message carries display maths: its equations one after another, each held to be read. */
export const derivationSceneSchema = z.object({
  kind: z.literal('derivation'),
  ...sceneBase,
  step: count,
  card: stepCardSchema,
  equations: count,
  beats: z.array(derivationBeatSchema).min(1),
  /** the glyph paths the beats' equations index into, each once (absent in older props) */
  glyphs: z.array(glyphPathSchema).optional(),
});

/** A sampled plot of the final answer (lib/video/plot.ts); `null` points break the line. */
export const answerPlotSchema = z.object({
  /** the formula plotted, as written (`x(t) = …`) */
  formula: z.string(),
  yTex: z.string(),
  xTex: z.string(),
  xFrom: z.number(),
  xTo: z.number(),
  xTicks: z.array(z.number()),
  yFrom: z.number(),
  yTo: z.number(),
  yTicks: z.array(z.number()),
  points: z.array(z.tuple([z.number(), z.number()]).nullable()),
  /** the values put in, as written (`m = 0.5\,\mathrm{kg}`) */
  given: z.array(z.string()),
  rangeTex: z.string(),
});
export type AnswerPlot = z.infer<typeof answerPlotSchema>;

/** The final answer on its own card, plotted when it can be. */
export const resultSceneSchema = z.object({
  kind: z.literal('result'),
  ...sceneBase,
  step: count,
  source: z.enum(['boxed', 'answer-line', 'last-equation']),
  answer: richTextSchema,
  plot: answerPlotSchema.nullable(),
});

export const sceneSchema = z.discriminatedUnion('kind', [
  titleSceneSchema,
  stepSceneSchema,
  terminalSceneSchema,
  diffSceneSchema,
  derivationSceneSchema,
  resultSceneSchema,
  closingSceneSchema,
]);
export type Scene = z.infer<typeof sceneSchema>;
export type TitleScene = z.infer<typeof titleSceneSchema>;
export type StepScene = z.infer<typeof stepSceneSchema>;
export type TerminalScene = z.infer<typeof terminalSceneSchema>;
export type DiffScene = z.infer<typeof diffSceneSchema>;
export type ClosingScene = z.infer<typeof closingSceneSchema>;
export type DerivationScene = z.infer<typeof derivationSceneSchema>;
export type ResultScene = z.infer<typeof resultSceneSchema>;

/** step <-> frame map: what the UI seeks with (see lib/video/chapters.ts). */
export const chapterSchema = z.object({
  step: count,
  /** first frame of the step's moment (inclusive) */
  fromFrame: frame,
  /** end of the step's moment (exclusive); always > fromFrame */
  toFrame: frame,
  label: z.string(),
  /** the real-time moment the step stands for */
  timestamp: z.string().nullable(),
  realSeconds: z.number().nullable(),
  castTime: z.number().nullable(),
});
export type Chapter = z.infer<typeof chapterSchema>;

export const criterionMarkSchema = z.object({
  frame,
  state: z.enum(['pass', 'fail']),
  /** `evidence` = a test result seen in an observation or the terminal; `verifier` = the verdict */
  source: z.enum(['evidence', 'verifier']),
  step: count.nullable(),
});
export type CriterionMark = z.infer<typeof criterionMarkSchema>;

export const videoCriterionSchema = z.object({
  key: z.string(),
  text: z.string(),
  origin: z.enum(['task', 'verifier', 'manual']),
  verdict: z.boolean().nullable(),
  /** state changes, sorted by frame; the state at a frame is the last mark at or before it */
  marks: z.array(criterionMarkSchema),
});
export type VideoCriterion = z.infer<typeof videoCriterionSchema>;

export const trajectoryVideoSchema = z.object({
  version: z.literal(VIDEO_PROPS_VERSION),
  /** read: every card readable at 1x; skim: the ~90 s overview (lib/video/pacing.ts) */
  pacing: pacingSchema,
  fps: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  durationInFrames: z.number().int().positive(),
  header: z.object({
    task: z.string(),
    instruction: richTextSchema,
    instructionOmittedChars: count,
    environment: z.string().nullable(),
    policy: z.string().nullable(),
    agent: z.string().nullable(),
    format: z.string(),
    externalId: z.string().nullable(),
    stepCount: count,
    /** wall-clock length of the run in seconds, when known */
    realDurationSeconds: z.number().nullable(),
  }),
  scenes: z.array(sceneSchema).min(2),
  chapters: z.array(chapterSchema),
  criteria: z.array(videoCriterionSchema),
  /** the line and style tables the terminal snapshots index into (null when no recording) */
  terminal: z
    .object({
      styles: z.array(terminalStyleSchema),
      lines: z.array(z.array(terminalRunSchema)),
    })
    .nullable(),
  /** blind review: what was withheld (the cards say "hidden" instead of showing nothing) */
  blind: z.object({ policy: z.boolean(), reward: z.boolean() }).optional(),
  /**
   * A run longer than its pacing's bound (lib/video/pacing.ts VIDEO_MAX_SECONDS): the steps the
   * video leaves out, as ranges (0-based, inclusive) with the frame where each gap falls; read
   * them in the transcript. Absent when every step is in the video.
   */
  omittedSteps: z.array(z.object({ fromStep: count, toStep: count, atFrame: count })).optional(),
  outcome: z.object({
    reward: z.number().nullable(),
    components: z.array(z.object({ name: z.string(), value: z.number() })),
    judges: z.array(
      z.object({ judge: z.string(), score: z.number().nullable(), label: z.string().nullable(), explanation: z.string().nullable() }),
    ),
    /** the final answer when the submission is not a diff (Inspect output, a maths result) */
    answer: richTextSchema.nullable(),
    exitStatus: z.string().nullable(),
    usage: z
      .object({ promptTokens: z.number().nullable(), completionTokens: z.number().nullable(), costUsd: z.number().nullable() })
      .nullable(),
  }),
});
export type TrajectoryVideoProps = z.infer<typeof trajectoryVideoSchema>;
