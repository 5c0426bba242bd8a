/**
 * The TrajectoryVideo props schema. One source of truth: lib/video/schema.ts (plain zod, shared
 * with the props derivation in lib/video/props.ts); this file re-exports it for the composition.
 */
export {
  trajectoryVideoSchema,
  type TrajectoryVideoProps,
  type Scene,
  type TitleScene,
  type StepScene,
  type TerminalScene,
  type DiffScene,
  type ClosingScene,
  type DerivationScene,
  type DerivationBeat,
  type ResultScene,
  type AnswerPlot,
  type EquationPieceProps,
  type EquationGlyphs,
  type GlyphPath,
  type StepCard,
  type RichText,
  type Excerpt,
  type DiffFile,
  type VideoCriterion,
  type Chapter,
  type TerminalStyle,
  VIDEO_PROPS_VERSION,
  VIDEO_FPS,
  VIDEO_WIDTH,
  VIDEO_HEIGHT,
} from '../../../lib/video/schema';
